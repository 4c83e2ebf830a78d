// The package as a user installs it. `npm pack` (whose prepack builds dist/) into a temp dir outside the
// repository, unpacked as node_modules/ghostwire beside symlinks to this repo's dependencies (no registry),
// then, with plain Node 24 — which refuses to strip types under node_modules, so any .ts left on the way
// fails — every public subpath is imported and used, a user's Vitest runs the fixtures and the plugin, a
// user's TypeScript checks against the shipped .d.ts files, and the packed bin answers --help.
// The build is the slow part (tsc emit, ~10 s of CPU), so it runs once for the whole file.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explain, installPacked, ROOT, run, userEnv, type Installed } from './testing/packed.ts';

// Preloaded into a bin run: reports which cli/main module Node actually loads.
const TRACE_MAIN = `data:text/javascript,${encodeURIComponent(
  "import { registerHooks } from 'node:module'; registerHooks({ load(url, context, next) { if (/\\/cli\\/main\\.[jt]s$/.test(url)) process.stderr.write(`loaded ${url}\\n`); return next(url, context); } });",
)}`;

describe('the packed package, installed', () => {
  let installed: Installed | null = null;
  let project = '';
  let pkg = '';
  let packed: string[] = [];

  beforeAll(async () => {
    installed = await installPacked('fixtures/package-smoke');
    ({ project, pkg, packed } = installed);
    console.info(`npm pack (with the prepack build): ${installed.packMs} ms`);
  }, 180_000);

  afterAll(async () => {
    await installed?.remove();
  });

  it('ships the build, the bin and the schema, and no TypeScript sources or tests', () => {
    expect(packed).toEqual(expect.arrayContaining([
      'package.json',
      'bin/ghostwire.js',
      'schema/scenario.schema.json',
      'schema/mcp-scenario.schema.json',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/cli/main.js',
      'dist/src/vitest/setup.js',
      'dist/fixtures/servers/launch.js',
      'dist/fixtures/servers/sqlite.js',
    ]));
    // What the README points a package user to: the docs, runnable example scenarios (LLM and MCP) and the eval sets.
    expect(packed).toEqual(expect.arrayContaining([
      'docs/scenario-format.md', 'docs/decisions/one-msw-server-per-worker.md', 'fixtures/scenarios/hello.json', 'fixtures/mcp/github.json',
      'fixtures/catalog/tools.json', 'fixtures/catalog/queries.json', 'fixtures/catalog-large/tools.json', 'fixtures/catalog-large/queries.json',
      'fixtures/catalog-heldout/tools.json', 'fixtures/catalog-heldout/queries.json',
      'fixtures/catalog-heldout-2/tools.json', 'fixtures/catalog-heldout-2/queries.json',
      'fixtures/catalog-heldout-3/tools.json', 'fixtures/catalog-heldout-3/queries.json',
      'fixtures/catalog-heldout-4/tools.json', 'fixtures/catalog-heldout-4/queries.json',
      'fixtures/catalog-heldout-5/tools.json', 'fixtures/catalog-heldout-5/queries.json',
      'fixtures/catalog-heldout-6/tools.json', 'fixtures/catalog-heldout-6/queries.json',
      'fixtures/fallback/tools.json', 'fixtures/fallback/pairs.json',
      'fixtures/fallback-heldout/tools.json', 'fixtures/fallback-heldout/pairs.json',
      'fixtures/fallback-heldout-2/tools.json', 'fixtures/fallback-heldout-2/pairs.json',
      'fixtures/fallback-heldout-3/tools.json', 'fixtures/fallback-heldout-3/pairs.json',
    ]));
    // Data files ship once, at the package root.
    expect(packed.filter((p) => p.startsWith('dist/fixtures/') && p.endsWith('.json'))).toEqual([]);
    expect(packed.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    expect(packed.filter((p) => /\.test\.|\/testing\/|test-helpers/.test(p))).toEqual([]);
  });

  it('plain Node imports every subpath from dist/ and answers the openai SDK over HTTP and through MSW', async () => {
    const result = await run(process.execPath, ['smoke.mjs'], { cwd: project, env: userEnv(), timeoutMs: 30_000 });
    expect(result.code, explain(result)).toBe(0);
    const seen = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as {
      resolved: Record<string, string>;
      types: Record<string, string>;
      viaServer: string;
      viaMsw: string;
      setupFiles: string[];
      fixture: string;
    };
    const dist = pathToFileURL(join(pkg, 'dist')).href;
    expect(Object.keys(seen.resolved)).toHaveLength(10);
    for (const [subpath, url] of Object.entries(seen.resolved)) {
      expect(url.startsWith(`${dist}/src/`), `${subpath} resolved to ${url}`).toBe(true);
      expect(url.endsWith('.js'), `${subpath} resolved to ${url}`).toBe(true);
    }
    for (const [name, type] of Object.entries(seen.types)) expect(type, name).toBe('function');
    expect(seen.viaServer).toBe('hello over HTTP');
    expect(seen.viaMsw).toBe('hello through MSW');
    expect(seen.setupFiles).toEqual([join(pkg, 'dist/src/vitest/setup.js')]);
    expect(seen.fixture).toBe(join(pkg, 'dist/fixtures/servers/sqlite.js'));
  });

  it("`ghostwire test` runs a user's Vitest with the installed plugin's setup file and fixtures (mockLLM, mcpServer from dist/) and what it loads on first use (the schema validator, useMockMCP)", { timeout: 90_000 }, async () => {
    const result = await run(process.execPath, [join(pkg, 'bin', 'ghostwire.js'), 'test', '--root', project], { cwd: project, env: userEnv(), timeoutMs: 60_000 });
    expect(result.code, explain(result)).toBe(0);
    expect(result.stdout).toMatch(/2 passed/);
  });

  it("a user's strict TypeScript checks against the shipped .d.ts files", { timeout: 90_000 }, async () => {
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2023', lib: ['ES2023', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      files: ['consumer.ts'],
    }));
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', project], { cwd: project, env: userEnv(), timeoutMs: 60_000 });
    expect(result.code, explain(result)).toBe(0);
  });

  it("a Vite-style project's TypeScript (moduleResolution Bundler, skipLibCheck: false) checks against the shipped .d.ts files", { timeout: 120_000 }, async () => {
    // Bundler resolution reads a CommonJS package's default import as its value object, so a type named
    // through it (`jsonpatch.Operation`) is an error there while NodeNext accepts it.
    await writeFile(join(project, 'tsconfig.bundler.json'), JSON.stringify({
      compilerOptions: { target: 'ES2023', lib: ['ES2023', 'DOM'], module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
      files: ['consumer.ts'],
    }));
    // skipLibCheck: false checks every declaration file the program reaches (the SDKs', msw's type-fest, ...),
    // ~25 CPU-s. tsc's incremental build info, kept between runs, replays the diagnostics of each file whose
    // content hash is unchanged and checks the rest; it lives in the project (paths relative to it, and every
    // run's project sits at the same depth under the temp dir) and is saved in node_modules/.cache.
    const info = join(project, 'bundler.tsbuildinfo');
    const saved = join(ROOT, 'node_modules', '.cache', 'ghostwire-package-tsc', createHash('sha256').update(ROOT).digest('hex').slice(0, 12), 'bundler.tsbuildinfo');
    await copyFile(saved, info).catch(() => {});
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', join(project, 'tsconfig.bundler.json'), '--incremental', '--tsBuildInfoFile', info], { cwd: project, env: userEnv(), timeoutMs: 90_000 });
    expect(result.code, explain(result)).toBe(0);
    await mkdir(dirname(saved), { recursive: true });
    await copyFile(info, `${saved}.${process.pid}`);
    await rename(`${saved}.${process.pid}`, saved);
  });

  it('the .d.ts files of the subpaths a user without the ghost imports name no SDK the README calls optional, and the ghost\'s name no Bedrock SDK', async () => {
    // With skipLibCheck: false, a type import of a peer the user did not install is an error in their build.
    // Walks the .d.ts files an entry reaches; throws at an import of a package `banned` matches.
    const reachable = async (entry: string, banned: RegExp): Promise<Map<string, string>> => {
      const reached = new Map<string, string>();
      const walk = async (file: string, from: string): Promise<void> => {
        if (reached.has(file)) return;
        reached.set(file, from);
        const text = await readFile(file, 'utf8');
        for (const [, spec] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
          if (spec.startsWith('.')) await walk(join(dirname(file), spec.replace(/\.[jt]s$/, '.d.ts')), file);
          else if (banned.test(spec)) throw new Error(`${relative(pkg, file)} imports ${spec} (reached from ${relative(pkg, from)})`);
        }
      };
      await walk(join(pkg, 'dist/src', `${entry}.d.ts`), 'the entry');
      return reached;
    };
    const optional = /^(@anthropic-ai\/|@google\/genai|@aws-sdk\/)/;
    let files = 0;
    for (const entry of ['index', 'vitest/index', 'vitest/setup', 'vitest/plugin', 'proxy/index', 'mcp/mock/index', 'goldens/index', 'rollout/index']) {
      files += (await reachable(entry, optional)).size;
    }
    expect(files).toBeGreaterThan(20);
    // The ghost needs the SDKs of the providers it drives, but Bedrock's only for Bedrock.
    const ghost = await reachable('ghost/index', /^@aws-sdk\//);
    expect([...ghost.keys()].some((f) => f.endsWith('provider-bedrock.d.ts'))).toBe(true);
  });

  it("the README's example scenarios are usable from the installed package", async () => {
    const result = await run(process.execPath, [join(pkg, 'bin', 'ghostwire.js'), 'scenario', 'check', 'node_modules/ghostwire/fixtures/scenarios'], { cwd: project, env: userEnv(), timeoutMs: 30_000 });
    expect(result.code, explain(result)).toBe(0);
    const mcp = await run(process.execPath, [join(pkg, 'bin', 'ghostwire.js'), 'mcp', 'check', 'node_modules/ghostwire/fixtures/mcp/github.json'], { cwd: project, env: userEnv(), timeoutMs: 30_000 });
    expect(mcp.code, explain(mcp)).toBe(0);
  });

  it('`ghostwire proxy eval` finds the eight eval sets and the four fallback sets in the installed package', { timeout: 90_000 }, async () => {
    const result = await run(process.execPath, [join(pkg, 'bin', 'ghostwire.js'), 'proxy', 'eval', '--mode', 'lexical', '--json'], { cwd: project, env: userEnv(), timeoutMs: 60_000 });
    expect(result.code, explain(result)).toBe(0);
    const { sets, fallbacks } = JSON.parse(result.stdout) as { sets: Array<{ catalog: string; tools: number; queries: number }>; fallbacks: Array<{ catalog: string; tools: number }> };
    expect(sets.map((s) => s.catalog)).toEqual([join(pkg, 'fixtures/catalog'), join(pkg, 'fixtures/catalog-large'), join(pkg, 'fixtures/catalog-heldout'), join(pkg, 'fixtures/catalog-heldout-2'), join(pkg, 'fixtures/catalog-heldout-3'), join(pkg, 'fixtures/catalog-heldout-4'), join(pkg, 'fixtures/catalog-heldout-5'), join(pkg, 'fixtures/catalog-heldout-6')]);
    expect(sets.map((s) => [s.tools, s.queries])).toEqual([[142, 48], [447, 212], [371, 204], [419, 193], [393, 176], [383, 209], [480, 240], [259, 100]]);
    expect(fallbacks.map((f) => [f.catalog, f.tools])).toEqual([[join(pkg, 'fixtures/fallback'), 163], [join(pkg, 'fixtures/fallback-heldout'), 189], [join(pkg, 'fixtures/fallback-heldout-2'), 226], [join(pkg, 'fixtures/fallback-heldout-3'), 312]]);
  });

  it('the packed bin runs from dist/', async () => {
    const result = await run(process.execPath, ['--import', TRACE_MAIN, join(pkg, 'bin', 'ghostwire.js'), '--help'], { cwd: project, env: userEnv(), timeoutMs: 30_000 });
    expect(result.code, explain(result)).toBe(0);
    expect(result.stderr).toContain(`loaded ${pathToFileURL(join(pkg, 'dist/src/cli/main.js')).href}`);
    expect(result.stdout).toMatch(/usage: ghostwire <command>/);
    expect(result.stdout).toMatch(/serve/);
  });
});

describe('in this repository', () => {
  it('ghostwire/* self-imports resolve to the TypeScript sources (the ghostwire-source condition), built or not', async () => {
    const viaPackage = await import('ghostwire/server');
    const viaSource = await import('../transports/server.ts');
    expect(viaPackage.startMockLLMServer).toBe(viaSource.startMockLLMServer);
    // Node's own resolver in this worker gets the condition too (Vitest passes it as --conditions).
    expect(import.meta.resolve('ghostwire')).toBe(pathToFileURL(join(ROOT, 'src/index.ts')).href);
  });

  it('node bin/ghostwire.js runs the sources, even when a dist/ exists', async () => {
    const result = await run(process.execPath, ['--import', TRACE_MAIN, join(ROOT, 'bin', 'ghostwire.js'), '--help'], { cwd: ROOT, env: userEnv(), timeoutMs: 30_000 });
    expect(result.code, explain(result)).toBe(0);
    expect(result.stderr).toContain(`loaded ${pathToFileURL(join(ROOT, 'src/cli/main.ts')).href}`);
    expect(result.stdout).toMatch(/usage: ghostwire <command>/);
  });
});
