// A user's project with ghostwire installed from its packed tarball (fixtures/user-project): MSW's
// setup-file recipe with the user's own handlers beside useMockLLM and the mockLLM fixture, run under forks,
// threads and --no-isolate; a provider request nothing answers; and fixtures/user-project-noplugin as
// `noplugin/`, a project without the plugin. A socket sentinel proves nothing reaches a non-loopback host.
// The same project's goldens are src/cli/user-project.test.ts, on an install of its own: the two files'
// runs go side by side.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explain } from './testing/packed.ts';
import { installUserProject, type UserProject } from './testing/user-project.ts';

describe('a user project: MSW recipe + ghostwire mocks, installed from the tarball', () => {
  let user: UserProject | null = null;

  beforeAll(async () => {
    user = await installUserProject();
  }, 180_000);

  afterAll(async () => {
    await user?.remove();
  });

  const vitest: UserProject['vitest'] = (...args) => user!.vitest(...args);

  it('useMockLLM, the mockLLM fixture and the user handlers, under forks, threads and forks --no-isolate', { timeout: 180_000 }, async () => {
    // --no-isolate: one worker runs both files, the user's server closed after the first and started again.
    for (const args of [['mock.case.ts'], ['--pool=threads', 'mock.case.ts'], ['--no-isolate', '--maxWorkers=1', 'unmocked.case.ts', 'mock.case.ts']]) {
      const result = await vitest(args, { CI: '1', OPENAI_BASE_URL: '' });
      expect(result.code, `${args.join(' ')}\n${explain(result)}`).toBe(0);
      expect(result.output).toMatch(/Tests\s+\d+ passed/);
    }
  });

  it('a provider request nothing answers fails the test, names the request and how to mock it, and never leaves', { timeout: 120_000 }, async () => {
    for (const env of [{}, { CI: '1' }]) {
      const result = await vitest(['unmocked.case.ts'], { GW_UNMOCKED: '1', OPENAI_BASE_URL: '', ...env });
      expect(result.code, explain(result)).toBe(1);
      expect(result.output).toContain('POST https://api.openai.com/v1/chat/completions reached a provider host and nothing answers it');
      expect(result.output).toContain('useMockLLM');
      expect(result.output).toMatch(/1 failed/);
    }
  });

  describe('without the plugin (ghostwire/vitest imported; a module-level client; the user\'s MSW server)', () => {
    const noplugin = () => user!.noplugin;
    // The client on the providers' default host (OPENAI_BASE_URL would point it at the recording upstream).
    const defaultHost = { OPENAI_BASE_URL: '' };

    it('every file\'s tests run in their own slot, one hook per file: isolated (forks, threads), and --no-isolate with the setup file', { timeout: 180_000 }, async () => {
      const runs: Array<[string[], NodeJS.ProcessEnv]> = [
        [[], {}],
        [['--pool=threads'], {}],
        [['--no-isolate', '--maxWorkers=1'], { GW_SETUP_FILE: '1' }],
        [['--no-isolate', '--maxWorkers=1', '--pool=threads'], { GW_SETUP_FILE: '1' }],
      ];
      for (const [args, env] of runs) {
        const result = await vitest(args, { ...defaultHost, ...env }, noplugin());
        expect(result.code, `${args.join(' ')} ${JSON.stringify(env)}\n${explain(result)}`).toBe(0);
        // Three files of four tests: useMockLLM, the mockLLM fixture, the golden fixture, the hook count.
        expect(result.output).toMatch(/Tests\s+12 passed/);
      }
      expect((await readdir(join(noplugin(), 'goldens'))).sort()).toEqual(['one.case', 'three.case', 'two.case']);
    });

    it('--no-isolate without the setup file: the files after the first fail, naming both fixes', { timeout: 120_000 }, async () => {
      for (const pool of ['forks', 'threads']) {
        const result = await vitest(['--no-isolate', '--maxWorkers=1', `--pool=${pool}`], defaultHost, noplugin());
        expect(result.code, explain(result)).toBe(1);
        // The first file of the worker passes; the two others fail (three ghostwire calls + the hook count each).
        expect(result.output).toMatch(/Tests\s+8 failed \| 4 passed/);
        expect(result.output).toContain("useMockLLM() ran in a test of");
        expect(result.output).toContain('this one shares its worker with an earlier file (isolate: false / --no-isolate)');
        expect(result.output).toContain("Add the plugin (plugins: [ghostwire()] from 'ghostwire/plugin' in vitest.config) or add 'ghostwire/vitest/setup' to test.setupFiles.");
      }
    });
  });
});
