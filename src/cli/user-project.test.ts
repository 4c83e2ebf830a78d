// A user's project with ghostwire installed from its packed tarball (fixtures/user-project): MSW's
// setup-file recipe with the user's own handlers beside useMockLLM, the mockLLM fixture and goldens; a
// module-level OpenAI client; a socket sentinel proving nothing reaches a non-loopback host. Run under
// forks, threads and --no-isolate; goldens recorded through a loopback baseURL, replayed in CI with that
// server stopped; the reporter under -t, --shard + --merge-reports, and with fewer calls than recorded.
// The same install also holds fixtures/user-project-noplugin as `noplugin/`: a project without the plugin.
import { existsSync, readFileSync } from 'node:fs';
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { explain, installPacked, ROOT, run, userEnv, type Installed, type Run } from './testing/packed.ts';

describe('a user project: MSW recipe + ghostwire, installed from the tarball', () => {
  let installed: Installed | null = null;
  let project = '';
  let upstream: MockLLMServer | null = null;
  let baseURL = '';

  beforeAll(async () => {
    installed = await installPacked('fixtures/user-project');
    project = installed.project;
    // One pack for both projects: the second resolves ghostwire and its peers from the first's node_modules.
    await cp(join(ROOT, 'fixtures/user-project-noplugin'), join(project, 'noplugin'), { recursive: true });
    upstream = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'Mild' }, consume: false }] }] });
    baseURL = `${upstream.url}/v1`;
  }, 180_000);

  afterAll(async () => {
    await upstream?.close();
    await installed?.remove();
  });

  const sentinel = () => join(project, 'sentinel.log');
  /** The project's Vitest; fails the calling test if any socket went to a non-loopback host. */
  const vitest = async (args: string[], env: NodeJS.ProcessEnv = {}, cwd = project): Promise<Run & { output: string }> => {
    await rm(sentinel(), { force: true });
    const result = await run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', ...args], {
      cwd,
      env: userEnv({ GW_SENTINEL: sentinel(), OPENAI_BASE_URL: baseURL, ...env }),
      timeoutMs: 90_000,
    });
    const left = existsSync(sentinel()) ? readFileSync(sentinel(), 'utf8') : '';
    expect(left, `sockets opened to non-loopback hosts:\n${left}\n${explain(result)}`).toBe('');
    return { ...result, output: `${result.stdout}\n${result.stderr}` };
  };

  it('records goldens through a loopback baseURL (OPENAI_BASE_URL), the user handler answering the weather API', { timeout: 120_000 }, async () => {
    const recorded = await vitest(['golden.case.ts', 'other.case.ts'], { GHOSTWIRE_RECORD: '1' });
    expect(recorded.code, explain(recorded)).toBe(0);
    expect(recorded.output).toMatch(/written\s+3/);
    const forecast = JSON.parse(await readFile(join(project, 'goldens/golden.case/forecast-from-a-golden.json'), 'utf8')) as { interactions: { request: { url: string; body: unknown } }[] };
    expect(forecast.interactions).toHaveLength(1);
    expect(forecast.interactions[0].request.url).toBe(`${baseURL}/chat/completions`);
    // The user's beforeEach handler answered the weather API while ghostwire recorded the LLM call.
    expect(JSON.stringify(forecast.interactions[0].request.body)).toContain('It is 18°C in Lyon');
    expect(upstream!.mock.requests).toHaveLength(4);
  });

  it('replays in CI with the upstream stopped: the golden answers the LLM, the user handler the rest', { timeout: 120_000 }, async () => {
    await upstream!.close();
    upstream = null;
    for (const args of [[], ['--no-isolate', '--maxWorkers=1'], ['--pool=threads']]) {
      const replayed = await vitest([...args, 'golden.case.ts', 'other.case.ts'], { CI: '1' });
      expect(replayed.code, `${args.join(' ')}\n${explain(replayed)}`).toBe(0);
      expect(replayed.output).toMatch(/replayed\s+3/);
      expect(replayed.output).not.toMatch(/unused/);
    }
  });

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

  it('the reporter vouches only for tests that ran: -t, and --shard 1/2 + 2/2 merged', { timeout: 180_000 }, async () => {
    const filtered = await vitest(['-t', 'two questions'], { CI: '1' });
    expect(filtered.code, explain(filtered)).toBe(0);
    expect(filtered.output).toMatch(/replayed\s+1/);
    expect(filtered.output).not.toMatch(/unused/);

    for (const shard of ['1/2', '2/2']) {
      const part = await vitest([`--shard=${shard}`, '--reporter=blob', `--outputFile=.vitest-reports/blob-${shard.replace('/', '-')}.json`, 'golden.case.ts', 'other.case.ts'], { CI: '1' });
      expect(part.code, explain(part)).toBe(0);
      expect(part.output).not.toMatch(/unused/);
    }
    expect(await readdir(join(project, '.vitest-reports'))).toHaveLength(2);
    const merged = await vitest(['--merge-reports=.vitest-reports'], { CI: '1' });
    expect(merged.code, explain(merged)).toBe(0);
    expect(merged.output).not.toMatch(/unused/);
  });

  it('reports a recorded interaction replay never used, and fails the test with strict', { timeout: 120_000 }, async () => {
    const fewer = await vitest(['golden.case.ts'], { CI: '1', GW_FEWER: '1' });
    expect(fewer.code, explain(fewer)).toBe(0);
    expect(fewer.output).toMatch(/unused calls goldens\/golden\.case\/two-questions\.json: 1: POST \/v1\/chat\/completions/);
    const strict = await vitest(['golden.case.ts'], { CI: '1', GW_FEWER: '1', GW_STRICT: '1' });
    expect(strict.code, explain(strict)).toBe(1);
    expect(strict.output).toContain('strict: 1 recorded interaction(s) of goldens/golden.case/two-questions.json were never used');
  });

  describe('without the plugin (ghostwire/vitest imported; a module-level client; the user\'s MSW server)', () => {
    const noplugin = () => join(project, 'noplugin');
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
