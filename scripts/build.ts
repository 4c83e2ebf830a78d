// `npm run build` (also run by `prepack`): compiles src/ and the fixture MCP servers to dist/ with tsc
// (tsconfig.build.json: JS + .d.ts, `.ts` imports rewritten to `.js`), then copies the data the built code
// reads at run time. An installed package must run this JS: Node will not strip types under node_modules.
//
// Layout: dist/src/** and dist/fixtures/servers/** mirror the repository, so paths that src/ computes
// relative to itself (../../fixtures/servers, ../../fixtures/catalog) hold in dist/ too.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

// Start clean: tsc never deletes outputs of removed sources, and stale files would ship.
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) {
  process.stderr.write(`build: tsc failed (${result.status ?? result.signal})\n`);
  process.exitCode = 1;
} else {
  // `ghostwire proxy eval` reads its default catalog from ../../fixtures/catalog beside src/proxy.
  cpSync(join(root, 'fixtures/catalog'), join(dist, 'fixtures/catalog'), { recursive: true });
}
