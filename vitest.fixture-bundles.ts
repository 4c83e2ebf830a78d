// Vitest global setup: the fixture MCP servers (fixtures/servers) as single-file builds, for this
// repository's test runs. The suite starts them ~150 times (the ghost, the proxy and the MCP tests each spawn
// the servers their config names), and a start from the sources resolves and links ~260 modules of the MCP
// SDK, zod and ajv: ~0.4 CPU-s, of which a single file saves half. The builds are the same code (rolldown,
// no minifying), kept in node_modules/.cache with the hash of every file that went into them, and built
// again when any of those changed. Tests reach them through `fixtureServerPath` (fixtures/servers/launch.ts),
// which reads GHOSTWIRE_FIXTURE_BUNDLES; without it (an installed package, a single file run elsewhere) the
// servers start from their sources or dist/ as before. docs/decisions/suite-speed.md has the figures.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = import.meta.dirname;
const SERVERS = join(ROOT, 'fixtures', 'servers');
const CACHE = join(ROOT, 'node_modules', '.cache', 'ghostwire-fixtures', createHash('sha256').update(ROOT).digest('hex').slice(0, 12));
const MANIFEST = 'manifest.json';

interface Manifest {
  /** Every file the build read, relative to the checkout, with its content's hash. */
  inputs: Record<string, string>;
  entries: string[];
}

/** The fixture servers: the files of fixtures/servers that build an MCP server (serve.ts is their runner). */
function serverEntries(): string[] {
  return readdirSync(SERVERS)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'serve.ts' && readFileSync(join(SERVERS, f), 'utf8').includes("'@modelcontextprotocol/sdk/server/"))
    .sort();
}

const hashOf = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

function fresh(dir: string, entries: string[]): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Manifest;
    if (JSON.stringify(manifest.entries) !== JSON.stringify(entries)) return false;
    return Object.entries(manifest.inputs).every(([file, hash]) => existsSync(resolve(ROOT, file)) && hashOf(resolve(ROOT, file)) === hash);
  } catch {
    return false;
  }
}

async function build(dir: string, entries: string[]): Promise<void> {
  // Built aside and swapped in whole, so a run beside this one never starts a half-written file.
  const work = `${dir}.build-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  // Loaded only to build: a run whose builds are fresh does not load the bundler.
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    input: Object.fromEntries(entries.map((f) => [f.replace(/\.ts$/, ''), join(SERVERS, f)])),
    platform: 'node',
    external: [/^node:/],
    logLevel: 'silent',
  });
  try {
    await bundle.write({ dir: work, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'shared-[hash].mjs' });
    const inputs = Object.fromEntries((await bundle.watchFiles).filter((f) => existsSync(f)).map((f) => [relative(ROOT, f), hashOf(f)]));
    writeFileSync(join(work, MANIFEST), `${JSON.stringify({ inputs, entries } satisfies Manifest)}\n`);
  } finally {
    await bundle.close();
  }
  rmSync(`${dir}.old-${process.pid}`, { recursive: true, force: true });
  if (existsSync(dir)) renameSync(dir, `${dir}.old-${process.pid}`);
  renameSync(work, dir);
  rmSync(`${dir}.old-${process.pid}`, { recursive: true, force: true });
}

/**
 * Builds the fixture servers if their inputs changed and names the folder in GHOSTWIRE_FIXTURE_BUNDLES.
 * @example // vitest.config.ts
 * test: { globalSetup: ['vitest.fixture-bundles.ts'] }
 */
export default async function setup(): Promise<void> {
  // Vitest runs a global setup once per project: the first one checked the cache for the whole run.
  if (process.env.GHOSTWIRE_FIXTURE_BUNDLES === CACHE) return;
  const entries = serverEntries();
  if (!fresh(CACHE, entries)) {
    mkdirSync(join(CACHE, '..'), { recursive: true });
    await build(CACHE, entries);
  }
  process.env.GHOSTWIRE_FIXTURE_BUNDLES = CACHE;
}
