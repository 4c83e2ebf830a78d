/**
 * The user's project of the user-project package tests (fixtures/user-project, with
 * fixtures/user-project-noplugin as `noplugin/`), installed from this run's packed tarball, and its Vitest
 * run in a child process behind a socket sentinel. Two test files each install their own copy, so their
 * runs (the suite's longest chain of sequential child processes) go side by side.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { explain, installPacked, ROOT, run, userEnv, type Run } from './packed.ts';

export interface UserProject {
  /** The user's project folder (node_modules/ghostwire inside). */
  project: string;
  /** The noplugin/ project inside it. */
  noplugin: string;
  /** The project's Vitest (`vitest run ...args` in `cwd`); fails the calling test if any socket went to a non-loopback host. */
  vitest(args: string[], env?: NodeJS.ProcessEnv, cwd?: string): Promise<Run & { output: string }>;
  remove(): Promise<void>;
}

/**
 * Installs the user project; `defaults` is read at each run for the environment every run gets.
 * @example const user = await installUserProject(() => ({ OPENAI_BASE_URL: baseURL }))
 */
export async function installUserProject(defaults: () => NodeJS.ProcessEnv = () => ({})): Promise<UserProject> {
  const installed = await installPacked('fixtures/user-project');
  const { project } = installed;
  // One install for both projects: the second resolves ghostwire and its peers from the first's node_modules.
  const noplugin = join(project, 'noplugin');
  await cp(join(ROOT, 'fixtures/user-project-noplugin'), noplugin, { recursive: true });
  const sentinel = join(project, 'sentinel.log');
  return {
    project,
    noplugin,
    async vitest(args, env = {}, cwd = project) {
      await rm(sentinel, { force: true });
      const result = await run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', ...args], {
        cwd,
        env: userEnv({ GW_SENTINEL: sentinel, ...defaults(), ...env }),
        timeoutMs: 90_000,
      });
      const left = existsSync(sentinel) ? readFileSync(sentinel, 'utf8') : '';
      expect(left, `sockets opened to non-loopback hosts:\n${left}\n${explain(result)}`).toBe('');
      return { ...result, output: `${result.stdout}\n${result.stderr}` };
    },
    remove: () => installed.remove(),
  };
}
