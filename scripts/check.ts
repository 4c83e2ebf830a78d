// `npm test`'s static checks, the type check (`npm run typecheck`) and the linter (`npm run lint`), run side
// by side: each is mostly one core's work, so together they take the longer one's time instead of the sum.
// Each one's output is printed whole when it ends, under its own heading; any failure fails the script.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const eslintPackage = require.resolve('eslint/package.json');
const checks = [
  { name: 'typecheck: tsc --noEmit', bin: require.resolve('typescript/bin/tsc'), args: ['--noEmit'] },
  { name: 'lint: eslint .', bin: join(dirname(eslintPackage), (require(eslintPackage) as { bin: { eslint: string } }).bin.eslint), args: ['.'] },
];

function check({ name, bin, args }: (typeof checks)[number]): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
