// A user's project with ghostwire installed from its packed tarball (fixtures/user-project): MSW's
// setup-file recipe with the user's own handlers beside the plugin's goldens; a module-level OpenAI client;
// a socket sentinel proving nothing reaches a non-loopback host. Goldens recorded through a loopback
// baseURL, replayed in CI with that server stopped under forks, threads and --no-isolate; the reporter
// under -t, --shard + --merge-reports, and with fewer calls than recorded. The same project's mocks
// (useMockLLM, the mockLLM fixture, no plugin) are src/cli/user-project-mocks.test.ts, on an install of its own.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { explain } from './testing/packed.ts';
import { installUserProject, type UserProject } from './testing/user-project.ts';

describe('a user project: MSW recipe + ghostwire goldens, installed from the tarball', () => {
  let user: UserProject | null = null;
  let project = '';
  let upstream: MockLLMServer | null = null;
  let baseURL = '';

  beforeAll(async () => {
    user = await installUserProject(() => ({ OPENAI_BASE_URL: baseURL }));
    project = user.project;
    upstream = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'Mild' }, consume: false }] }] });
    baseURL = `${upstream.url}/v1`;
  }, 180_000);

  afterAll(async () => {
    await upstream?.close();
    await user?.remove();
  });

  const vitest: UserProject['vitest'] = (...args) => user!.vitest(...args);

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
  it('golden.env(): a test that spawns an app records the child\'s traffic into its golden and replays it with the upstream gone', { timeout: 120_000 }, async () => {
    const agent = await startMockLLMServer({
      scenarios: [
        {
          name: 'agent',
          steps: [
            { match: { provider: 'openai', toolResults: ['get_weather'] }, respond: { text: 'Sunny, 21 °C.' }, consume: false },
            { match: { provider: 'openai', tools: ['get_weather'] }, respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false },
            { match: { provider: 'openai' }, respond: { text: 'Hi!' }, consume: false },
            { match: { provider: 'anthropic', toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris.' }, consume: false },
            { match: { provider: 'anthropic', tools: ['get_weather'] }, respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false },
          ],
        },
      ],
    });
    try {
      const recorded = await vitest(['child.case.ts'], { GHOSTWIRE_RECORD: '1', GHOSTWIRE_UPSTREAM: agent.url });
      expect(recorded.code, explain(recorded)).toBe(0);
      expect(recorded.output).toMatch(/written\s+1/);
      expect(agent.mock.requests).toHaveLength(5);
    } finally {
      await agent.close();
    }
    const file = join(project, 'goldens/child.case/a-spawned-app-recorded-and-replayed-through-golden-env.json');
    const text = await readFile(file, 'utf8');
    const golden = JSON.parse(text) as { interactions: { provider: string; request: { url: string } }[]; expected: Record<string, { answer: string }> };
    expect(golden.interactions.map((i) => `${i.provider} ${i.request.url}`)).toEqual([
      // Kept as the provider's own URL (the child reached it through the port; recording forwarded to the upstream).
      'openai https://api.openai.com/v1/chat/completions',
      'openai https://api.openai.com/v1/chat/completions',
      'openai https://api.openai.com/v1/chat/completions',
      'anthropic https://api.anthropic.com/v1/messages',
      'anthropic https://api.anthropic.com/v1/messages',
    ]);
    expect(golden.expected.openai.answer).toBe('Sunny, 21 °C.');
    expect(golden.expected.anthropic.answer).toBe('Sunny in Paris.');
    expect(text).not.toContain('child-key');
    const replayed = await vitest(['child.case.ts'], { CI: '1' });
    expect(replayed.code, explain(replayed)).toBe(0);
    expect(replayed.output).toMatch(/replayed\s+1/);
    expect(replayed.output).not.toMatch(/unused/);
  });
});
