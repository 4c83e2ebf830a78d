// `npm run build` (also run by `prepack`): compiles src/ and the fixture MCP servers to dist/ with tsc
// (tsconfig.build.json: JS + .d.ts, `.ts` imports rewritten to `.js`), then copies the data the built code
// reads at run time. An installed package must run this JS: Node will not strip types under node_modules.
//
// Layout: dist/src/** and dist/fixtures/servers/** mirror the repository, so paths that src/ computes
// relative to itself (../../fixtures/servers) hold in dist/ too. Data files (eval sets, example scenarios)
// ship once at the package root (package.json `files`) and are found from there.
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
// Built aside and swapped in whole: a clean tree (tsc never deletes outputs of removed sources), and a
// concurrent build or pack (two test runs) never sees a half-written dist/.
const work = join(root, '.tmp', `build-${process.pid}`);
const staging = join(work, 'dist');
const previous = join(work, 'previous');

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
try {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', staging], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`tsc failed (${result.status ?? result.signal})`);
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(previous, { recursive: true, force: true });
      try {
        renameSync(dist, previous);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      renameSync(staging, dist);
      break;
    } catch (error) {
      // Another build swapped its dist/ in between our two renames: take it out and try again.
      if (attempt >= 5) throw error;
    }
  }
} catch (error) {
  process.stderr.write(`build: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
