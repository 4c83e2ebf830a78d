// `npm test`: the type check (`npm run typecheck`), the linter (`npm run lint`) and the Vitest suite, all
// started at once. The suite is the long pole and its CPU use has gaps (its start-up, files waiting on their
// child processes, its tail); the two checks run at a lower CPU priority (nice 10), so they take the cores
// the suite leaves idle instead of ~12 s of their own before it. Vitest's output streams as it runs; each
// check's output is printed whole once the suite is done, under its own heading. Any failure fails the
// script. Arguments go to `vitest run` (`npm test -- src/x.test.ts`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const bin = (pkg: string, name: string): string => {
  const manifest = require.resolve(`${pkg}/package.json`);
  const bins = (require(manifest) as { bin: string | Record<string, string> }).bin;
  return join(dirname(manifest), typeof bins === 'string' ? bins : bins[name]!);
};
// The checks load the same TypeScript compiler as the package tests' builds and type checks: one shared
// compile cache (the one vitest.config.ts sets) for all of them.
const env = { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? resolve(import.meta.dirname, '../node_modules/.cache/node-compile-cache') };
const checks = [
  { name: 'typecheck: tsc --noEmit', bin: bin('typescript', 'tsc'), args: ['--noEmit'] },
  { name: 'lint: eslint .', bin: bin('eslint', 'eslint'), args: ['.'] },
];

interface Ended {
  ok: boolean;
  report: string;
}

function check({ name, bin, args }: (typeof checks)[number]): Promise<Ended> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Below the suite's processes: the check runs on what they leave idle.
    if (child.pid !== undefined) setPriority(child.pid, 10);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', (error) => done({ ok: false, report: `> ${name}: could not start (${error.message})\n` }));
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const verdict = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
      done({ ok: code === 0, report: `> ${name}: ${verdict}, ${seconds} s\n${output}${output && !output.endsWith('\n') ? '\n' : ''}` });
    });
  });
}

function vitest(args: string[]): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin('vitest', 'vitest'), 'run', ...args], { stdio: 'inherit' });
    child.on('error', (error) => {
      process.stdout.write(`> vitest: could not start (${error.message})\n`);
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

const running = checks.map(check);
const suite = await vitest(process.argv.slice(2));
const ended = await Promise.all(running);
for (const { report } of ended) process.stdout.write(report);
if (!suite || ended.some((e) => !e.ok)) process.exitCode = 1;
