import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClientPool } from './mcp-pool.ts';
import { QAEnv } from './qa-env.ts';
import { startTestMcpServer, type TestMcpServer } from './testing/mcp-test-server.ts';
import { createToolRegistry } from './tool-registry.ts';
import { toolWrapper } from './tool-wrapper.ts';

const echo = (text: string) => `<tool_call>{"tool_name": "echo", "tool_params": {"text": ${JSON.stringify(text)}}}</tool_call>`;
const slowThenEcho = (ms: number) => `<tool_call>{"tool_name": "slow", "tool_params": {"ms": ${ms}}}</tool_call>`;

let server: TestMcpServer;
beforeAll(async () => {
  server = await startTestMcpServer();
});
afterAll(() => server.close());

describe('many environments, one server', () => {
  it('sixteen interleaved episodes share one session, stay under the cap, and each sees only its own results', async () => {
    const registry = createToolRegistry({ pool: new McpClientPool({ maxConcurrency: 3 }) });
    const envs = Array.from({ length: 16 }, (_, i) =>
      toolWrapper(
        new QAEnv({ items: [{ id: `q${i}`, question: `Say ${i}`, answers: [String(i)] }] }),
        { wrapper_args: { tool_success_reward: 0.5 }, tool_configs: [{ tool_id: 'mcp', tool_args: { server_url: server.url } }] },
        { registry },
      ),
    );
    const before = server.sessionsOpened;
    const episodes = await Promise.all(
      envs.map(async (env, i) => {
        await env.reset();
        const seen: string[] = [];
        for (let turn = 0; turn < 3; turn++) {
          // Uneven delays shuffle the order in which calls complete.
          if (turn === 1) await env.step(slowThenEcho((i * 7) % 20));
          seen.push((await env.step(echo(`env ${i} turn ${turn}`))).observation);
        }
        const final = await env.step(`<answer>${i}</answer>`);
        return { seen, final };
      }),
    );
    episodes.forEach(({ seen, final }, i) => {
      expect(seen).toEqual([0, 1, 2].map((turn) => `<information>env ${i} turn ${turn}</information>`));
      expect(final).toMatchObject({ reward: 1, info: { metrics: { tool_use_counter: 4, tool_success_counter: 4 } } });
    });
    expect(server.sessionsOpened - before).toBe(1);
    expect(registry.pool.stats().peakConcurrency[server.url]).toBe(3);
    await Promise.all(envs.map((env) => env.close()));
    await registry.close();
  });

  it('separate registries are separate groups: one connection each', async () => {
    const before = server.sessionsOpened;
    const groups = [createToolRegistry(), createToolRegistry()];
    const envs = groups.flatMap((registry) =>
      [0, 1, 2].map(() =>
        toolWrapper(new QAEnv({ items: [{ id: 'q', question: 'q', answers: ['a'] }] }), { tool_configs: [{ tool_id: 'mcp', tool_args: { server_url: server.url } }] }, { registry }),
      ),
    );
    await Promise.all(envs.map((env) => env.reset()));
    expect(server.sessionsOpened - before).toBe(2);
    await Promise.all(envs.map((env) => env.close()));
    await Promise.all(groups.map((g) => g.close()));
  });
});
