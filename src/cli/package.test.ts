// The package as a user installs it. `npm pack` (whose prepack builds dist/) into a temp dir outside the
// repository, unpacked as node_modules/ghostwire beside symlinks to this repo's dependencies (no registry),
// then, with plain Node 24 — which refuses to strip types under node_modules, so any .ts left on the way
// fails — every public subpath is imported and used, a user's Vitest runs the fixtures and the plugin, a
// user's TypeScript checks against the shipped .d.ts files, and the packed bin answers --help.
// The build is the slow part (tsc emit, ~10 s of CPU), so it runs once for the whole file.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SMOKE = join(ROOT, 'fixtures/package-smoke');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (killed after `timeoutMs`), collecting its output. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A user's environment: Node 24 first on PATH, none of this run's Vitest/npm variables or conditions. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|TEST$|NODE_OPTIONS$|NODE_ENV$|npm_|CI$|GHOSTWIRE_|MOCKLLM_|OPENAI_|ANTHROPIC_|GEMINI_|GOOGLE_)/i.test(key)) continue;
    env[key] = value;
  }
  env.PATH = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
  return env;
}

// Preloaded into a bin run: reports which cli/main module Node actually loads.
const TRACE_MAIN = `data:text/javascript,${encodeURIComponent(
  "import { registerHooks } from 'node:module'; registerHooks({ load(url, context, next) { if (/\\/cli\\/main\\.[jt]s$/.test(url)) process.stderr.write(`loaded ${url}\\n`); return next(url, context); } });",
)}`;

function explain(result: Run): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout.slice(-3000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
}

describe('the packed package, installed', () => {
  let tmp = '';
  let project = '';
  let pkg = '';
  let packed: string[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'ghostwire-pack-'));
    const started = performance.now();
    // --offline: packing a local folder needs no registry, and a test must never reach one.
    const pack = await run('npm', ['pack', '--json', '--offline', '--pack-destination', tmp], { cwd: ROOT, env: userEnv(), timeoutMs: 170_000 });
    expect(pack.code, explain(pack)).toBe(0);
    console.info(`npm pack (with the prepack build): ${Math.round(performance.now() - started)} ms`);
    const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
    packed = info.files.map((f) => f.path);

    project = join(tmp, 'project');
    pkg = join(project, 'node_modules', 'ghostwire');
    await mkdir(pkg, { recursive: true });
    const untar = await run('tar', ['-xzf', join(tmp, info.filename), '--strip-components=1', '-C', pkg], { cwd: tmp, env: userEnv(), timeoutMs: 30_000 });
    expect(untar.code, explain(untar)).toBe(0);
    // The dependencies, as an install would provide them: links to this repository's node_modules.
    for (const name of await readdir(join(ROOT, 'node_modules'))) {
      if (name.startsWith('.') || name === 'ghostwire') continue;
      await symlink(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), 'junction');
    }
    // Its own package.json stops Node's package scope lookup from reaching any outer project.
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'ghostwire-user', private: true, type: 'module' })}\n`);
    for (const file of await readdir(SMOKE)) await copyFile(join(SMOKE, file), join(project, file));
  }, 180_000);

  afterAll(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
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
      'dist/src/vitest/golden-setup.js',
      'dist/fixtures/servers/launch.js',
      'dist/fixtures/servers/sqlite.js',
      'dist/fixtures/catalog/tools.json',
    ]));
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
    expect(seen.setupFiles).toEqual([join(pkg, 'dist/src/vitest/golden-setup.js')]);
  });

  it("`ghostwire test` runs a user's Vitest with the installed plugin's setup file and fixtures (mockLLM, mcpServer from dist/)", async () => {
    const result = await run(process.execPath, [join(pkg, 'bin', 'ghostwire.js'), 'test', '--root', project], { cwd: project, env: userEnv(), timeoutMs: 60_000 });
    expect(result.code, explain(result)).toBe(0);
    expect(result.stdout).toMatch(/1 passed/);
  });

  it("a user's strict TypeScript checks against the shipped .d.ts files", async () => {
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2023', lib: ['ES2023', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      files: ['consumer.ts'],
    }));
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', project], { cwd: project, env: userEnv(), timeoutMs: 60_000 });
    expect(result.code, explain(result)).toBe(0);
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
