// `npm test`'s static checks, the type check (`npm run typecheck`) and the linter (`npm run lint`), run side
// by side. The type check is TypeScript 7's native compiler (the `typescript-native` alias): 8 s and 11 CPU-s
// on a fresh clone against 5.9's 29 s and 30 CPU-s; 5.9 stays the `typescript` package, for the build
// (docs/decisions/type-check-compiler.md). The linter is oxlint with typescript-eslint's recommended rules,
// a fraction of a second where ESLint took 12–18 s (docs/decisions/lint-with-oxlint.md).
// Each one's output is printed whole when it ends, under its own heading; any failure fails the script.
//
// tsc keeps its incremental build info in node_modules/.cache, so a run after a small change re-checks only
// what it touches. The build info records every input file's hash, @types and SDK declarations included, so
// a stale entry is never trusted. The folder is per checkout (a hash of its path): worktrees that share one
// node_modules keep apart caches instead of overwriting each other's.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(root, 'node_modules', '.cache', 'ghostwire-check', createHash('sha256').update(root).digest('hex').slice(0, 12));
const oxlintPackage = require.resolve('oxlint/package.json');
const typescriptPackage = require.resolve('typescript-native/package.json');
const checks = [
  {
    name: 'typecheck: tsc 7 --noEmit',
    bin: join(dirname(typescriptPackage), (require(typescriptPackage) as { bin: { tsc: string } }).bin.tsc),
    // One checker thread a core, up to tsc's default of four: on two cores, cold, two take ~6–7 s and
    // 11–13 CPU-s against one's 7–8 s and 9.5–11; four only duplicate work (20 CPU-s).
    args: ['--noEmit', '--checkers', String(Math.min(4, availableParallelism())), '--incremental', '--tsBuildInfoFile', join(cache, 'tsconfig.tsbuildinfo')],
  },
  {
    name: 'lint: oxlint',
    bin: join(dirname(oxlintPackage), (require(oxlintPackage) as { bin: { oxlint: string } }).bin.oxlint),
    // Rules and ignores in .oxlintrc.json, which it reads from the working directory.
    args: [],
  },
];

function check({ name, bin, args }: (typeof checks)[number]): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', (error) => {
      process.stdout.write(`> ${name}: could not start (${error.message})\n`);
      resolve(false);
    });
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const verdict = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`> ${name}: ${verdict}, ${seconds} s\n${output}${output && !output.endsWith('\n') ? '\n' : ''}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(checks.map(check));
if (results.includes(false)) process.exitCode = 1;
