/**
 * An agentic RL rollout, end to end, with nothing random in it.
 *
 * - The environment is a question-answering task (fixtures/rollout/shop-qa.json): reward 1 for the
 *   right answer, after normalization.
 * - It is wrapped with a tool: an MCPTool pointed at a real MCP server over HTTP, the sqlite fixture
 *   (fixtures/servers/sqlite.ts), which runs as a separate process. The wiring comes from a YAML
 *   config in the seed's shape (fixtures/rollout/shop-mcp.yaml), with the server's URL given as a
 *   command-line style override, since it is only known once the server runs.
 * - The policy is an ordinary LLM call through the official openai SDK, answered by ghostwire's mock
 *   LLM: a scenario that first emits a `<tool_call>` action, then, once the tool's result is in the
 *   conversation, the answer.
 *
 * Four environments run at once over one shared connection to the server, and none sees another's
 * data: each answer step only matches when that environment's own query result is in its
 * conversation. The last test puts the ghostwire proxy (ghostwire/proxy) between the tool and the
 * database: any MCP server over HTTP will do.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openai, scenario } from 'ghostwire';
import { startMockLLMServer, type MockLLMServer } from 'ghostwire/server';
import {
  createToolRegistry,
  loadRolloutConfig,
  makeRolloutEnv,
  McpClientPool,
  QAEnv,
  toolWrapper,
  type Env,
  type ToolRegistry,
} from 'ghostwire/rollout';
import { createProxy } from 'ghostwire/proxy';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHttpFixture, stdioFixture, type HttpFixture } from 'ghostwire/vitest';

const CONFIG = new URL('../fixtures/rollout/shop-mcp.yaml', import.meta.url).pathname;
const SERVER_URL_KEY = 'custom_envs.ShopQA.tool_wrapper.tool_configs.0.tool_args.server_url';

/** What the scripted policy does for each question (seed = index in shop-qa.json). */
const PLAN = [
  { ask: 'customer Grace', sql: "SELECT country FROM customers WHERE name = 'Grace'", evidence: '"country":"US"', answer: 'US' },
  {
    ask: 'monitors did Ada',
    sql: "SELECT SUM(o.quantity) AS total FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id WHERE c.name = 'Ada' AND p.name = 'Monitor'",
    evidence: '"total":2',
    answer: '2',
  },
  { ask: 'price of the Mouse', sql: "SELECT price_cents FROM products WHERE name = 'Mouse'", evidence: '"price_cents":1900', answer: '1900' },
  {
    ask: 'did Linus order',
    sql: "SELECT p.name FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id WHERE c.name = 'Linus'",
    evidence: '"name":"Keyboard"',
    answer: 'Keyboard',
  },
];

const toolCall = (tool_name: string, tool_params: Record<string, unknown>): string =>
  `<tool_call>${JSON.stringify({ tool_name, tool_params })}</tool_call>`;

/** The policy's script. Answer steps come first so they win once the evidence is in the conversation. */
function shopPolicy() {
  const policy = scenario('shop-policy');
  for (const { ask, sql, evidence, answer } of PLAN) {
    policy
      .expect(openai())
      .withMessage({ role: 'user', content: { contains: ask } })
      .withLastMessage({ role: 'user', content: { contains: evidence } })
      .then()
      .respondWithText(`The result says it. <answer>${answer}</answer>`);
    policy
      .expect(openai())
      .withLastMessage({ role: 'user', content: { contains: ask } })
      .then()
      .respondWithText(`Let me look it up. ${toolCall('query', { sql })}`);
  }
  return policy.build();
}

interface Turn {
  action: string;
  observation: string;
  reward: number;
}

/** One episode: the LLM acts, the environment answers, until the episode ends. */
async function runEpisode(env: Env, llm: OpenAI, seed: number) {
  const { observation } = await env.reset({ seed });
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: observation }];
  const turns: Turn[] = [];
  for (;;) {
    const completion = await llm.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const action = completion.choices[0].message.content ?? '';
    const step = await env.step(action);
    turns.push({ action, observation: step.observation, reward: step.reward });
    if (step.terminated || step.truncated) {
      return { turns, totalReward: turns.reduce((sum, t) => sum + t.reward, 0), info: step.info };
    }
    messages.push({ role: 'assistant', content: action }, { role: 'user', content: step.observation });
  }
}

let database: HttpFixture;
let llmServer: MockLLMServer;

beforeAll(async () => {
  database = await startHttpFixture('sqlite');
  llmServer = await startMockLLMServer({ scenarios: [shopPolicy()] });
});
afterAll(async () => {
  await llmServer?.close();
  await database?.close();
});

describe('a rollout with an MCP tool and the mock LLM as the policy', () => {
  it('four environments run concurrently over one shared server connection, without cross-talk', async () => {
    const loaded = await loadRolloutConfig(CONFIG, { overrides: [`${SERVER_URL_KEY}=${database.url}`] });
    // One registry per rollout: its pool gives every environment the same connection to the server.
    const registry: ToolRegistry = createToolRegistry({ pool: new McpClientPool({ maxConcurrency: 2 }) });
    const envs = await Promise.all(PLAN.map(() => makeRolloutEnv(loaded, 'ShopQA', { tools: registry })));
    const llm = new OpenAI({ apiKey: 'sk-test', baseURL: `${llmServer.url}/v1`, maxRetries: 0 });

    try {
      const episodes = await Promise.all(envs.map((env, seed) => runEpisode(env, llm, seed)));

      episodes.forEach((episode, seed) => {
        const [lookup, answer] = episode.turns;
        // Turn 1: the tool call, handled by the wrapper; the tool success reward is 0.2 (see the YAML).
        expect(lookup.action).toContain('<tool_call>');
        expect(lookup.observation).toContain(PLAN[seed].evidence);
        expect(lookup.reward).toBeCloseTo(0.2);
        // Turn 2: the answer reaches the QA environment, which scores it.
        expect(answer.action).toContain(`<answer>${PLAN[seed].answer}</answer>`);
        expect(answer.reward).toBe(1);
        expect(episode.totalReward).toBeCloseTo(1.2);
        expect(episode.info).toMatchObject({ correct: true, metrics: { tool_use_counter: 1, tool_success_counter: 1 } });
      });

      // One connection for all four environments, at most two calls in flight.
      expect(registry.pool.stats()).toMatchObject({ servers: 1, connects: 1 });
      expect(registry.pool.stats().peakConcurrency[database.url]).toBeLessThanOrEqual(2);
      // The policy followed its script: every step was used, by eight requests.
      llmServer.mock.assertAllConsumed();
      expect(llmServer.mock.requests).toHaveLength(8);
    } finally {
      await Promise.all(envs.map((env) => env.close?.()));
      await registry.close();
    }
  });

  it('failed tool calls earn no success reward, and the tool limit makes the agent answer', async () => {
    // A clumsy policy: a query with a typo, a call to a tool the server lacks, then the answer.
    const clumsy = scenario('clumsy')
      .expect(openai())
      .withLastMessage({ role: 'user', content: { contains: 'customer Grace' } })
      .then()
      .respondWithText(toolCall('query', { sql: 'SELECT contry FROM customers' }))
      .expect(openai())
      .withLastMessage({ role: 'user', content: { contains: 'Execution Error' } })
      .then()
      .respondWithText(toolCall('search', { q: 'Grace' }))
      .expect(openai())
      .withLastMessage({ role: 'user', content: { contains: 'Reached the maximum number of tool use.' } })
      .then()
      .respondWithText('<answer>US</answer>')
      .build();
    const session = llmServer.sessions.create({ scenarios: [clumsy] });
    const llm = new OpenAI({ apiKey: 'sk-test', baseURL: `${llmServer.sessionUrl(session.id)}/v1`, maxRetries: 0 });

    // The same wiring written in code rather than YAML.
    const registry = createToolRegistry();
    const env = toolWrapper(
      await QAEnv.fromFile(new URL('../fixtures/rollout/shop-qa.json', import.meta.url).pathname),
      {
        wrapper_args: { tool_reward: 0.01, tool_success_reward: 0.2, max_tool_uses: 2 },
        tool_configs: [{ tool_id: 'mcp', tool_args: { server_url: database.url } }],
      },
      { registry },
    );
    try {
      const episode = await runEpisode(env, llm, 0);
      const [badSql, unknownTool, answer] = episode.turns;
      expect(badSql.observation).toMatch(/^\[Execution Error: SQL error: no such column: contry/);
      expect(badSql.reward).toBeCloseTo(0.01);
      expect(unknownTool.observation).toBe(
        "[Validation Error: The tool call format is incorrect. Reason: Unknown tool_name: 'search'. Available tools are: ['list_tables', 'describe_table', 'query']]" +
          '\n\nReached the maximum number of tool use. Please output final answer directly.',
      );
      expect(unknownTool.reward).toBeCloseTo(0.01);
      expect(answer.reward).toBe(1);
      expect(episode.info).toMatchObject({ metrics: { tool_use_counter: 2, tool_success_counter: 0 } });
      session.mock.assertAllConsumed();
    } finally {
      await env.close();
      await registry.close();
    }
  });

  it('the tool can be the ghostwire proxy, in front of the same database', async () => {
    // The proxy is itself an MCP server over HTTP: the agent reaches the database through its call_tool.
    const dir = await mkdtemp(join(tmpdir(), 'rollout-proxy-'));
    const proxy = createProxy({ mcpServers: { shop: stdioFixture('sqlite') } }, { storePath: join(dir, 'proxy.db'), embedder: null, llm: null });
    const { url } = await proxy.listen();
    const sql = "SELECT country FROM customers WHERE name = 'Grace'";
    const viaProxy = scenario('via-proxy')
      .expect(openai())
      .withLastMessage({ role: 'user', content: { contains: 'customer Grace' } })
      .then()
      .respondWithText(toolCall('call_tool', { server: 'shop', tool: 'query', arguments: { sql } }))
      .expect(openai())
      .withLastMessage({ role: 'user', content: { contains: '"country":"US"' } })
      .then()
      .respondWithText('<answer>US</answer>')
      .build();
    const session = llmServer.sessions.create({ scenarios: [viaProxy] });
    const llm = new OpenAI({ apiKey: 'sk-test', baseURL: `${llmServer.sessionUrl(session.id)}/v1`, maxRetries: 0 });
    const registry = createToolRegistry();
    const env = toolWrapper(
      await QAEnv.fromFile(new URL('../fixtures/rollout/shop-qa.json', import.meta.url).pathname),
      {
        wrapper_args: { tool_success_reward: 0.2 },
        tool_configs: [{ tool_id: 'mcp', tool_args: { server_url: url, tool_names_subset: ['list_tools', 'call_tool'] } }],
      },
      { registry },
    );
    try {
      const episode = await runEpisode(env, llm, 0);
      expect(episode.turns[0].observation).toContain('"country":"US"');
      expect(episode.totalReward).toBeCloseTo(1.2);
      session.mock.assertAllConsumed();
    } finally {
      await env.close();
      await registry.close();
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
