// Goldens of the ghost's happy and recovery paths, per provider: recorded once against the mock LLM as
// upstream (locally, when missing), replayed from goldens/ on every run after that (and always in CI).
import { expect, test as base } from 'vitest';
import { stdioFixture } from '../../fixtures/servers/launch.ts';
import { openaiResponses, scenario } from '../scenario/builder.ts';
import { startMockLLMServer } from '../transports/server.ts';
import { goldenFixture, type GoldenFixture } from '../vitest/golden-fixture.ts';
import { toMatchGolden } from '../vitest/golden-matcher.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { on, PROVIDERS, type CoreProvider } from './testing/harness.ts';
import type { ProviderName } from './tool-names.ts';
import type { GhostOptions, GhostResult } from './types.ts';

expect.extend({ toMatchGolden });
const test = base.extend<{ golden: GoldenFixture }>({ golden: goldenFixture });

const MODELS: Record<CoreProvider, string> = { openai: 'gpt-4o', anthropic: 'claude-sonnet-4-5', gemini: 'gemini-2.5-flash' };

const happy = (p: ProviderName) =>
  scenario(`ghost-happy-${p}`)
    .expect(on(p)).then().respondWithToolCalls([{ id: 'g1', name: 'db_list_tables' }]).withUsage({ inputTokens: 120, outputTokens: 8 })
    .expect(on(p)).then().respondWithToolCalls([{ id: 'g2', name: 'db_describe_table', arguments: { table: 'products' } }]).withUsage({ inputTokens: 180, outputTokens: 12 })
    .expect(on(p)).then().respondWithToolCalls([{ id: 'g3', name: 'db_query', arguments: { sql: 'SELECT name, price_cents FROM products ORDER BY price_cents DESC LIMIT 1' } }]).withUsage({ inputTokens: 260, outputTokens: 20 })
    .expect(on(p)).then().respondWithText('The most expensive product is the Monitor at 189.00.').withUsage({ inputTokens: 320, outputTokens: 14 });

const recovery = (p: ProviderName) =>
  scenario(`ghost-recovery-${p}`)
    .expect(on(p)).then().respondWithToolCalls([{ id: 'r1', name: 'flaky_fetch_data', arguments: { key: 'sku-1' } }]).withUsage({ inputTokens: 90, outputTokens: 9 })
    .expect(on(p)).withLastMessage({ contains: 'The previous approach failed' })
    .then().respondWithText('Retrying once.').respondWithToolCalls([{ id: 'r2', name: 'flaky_fetch_data', arguments: { key: 'sku-1' } }]).withUsage({ inputTokens: 140, outputTokens: 15 })
    .expect(on(p)).then().respondWithText('sku-1 is value-of-sku-1.').withUsage({ inputTokens: 170, outputTokens: 10 });

/** Reasoning on: each provider's reasoning model thinks before its call and its answer. */
const REASONING_MODELS: Record<CoreProvider, string> = { openai: 'o4-mini', anthropic: 'claude-sonnet-4-6', gemini: 'gemini-3-pro-preview' };

const reasoning = (p: CoreProvider) => {
  // OpenAI's reasoning mode speaks the Responses API.
  const match = () => (p === 'openai' ? openaiResponses() : on(p));
  return scenario(`ghost-reasoning-${p}`)
    .expect(match()).then().respondWithReasoning('The products table holds the prices; describe it first.')
    .respondWithToolCalls([{ id: 't1', name: 'db_describe_table', arguments: { table: 'products' } }]).withUsage({ inputTokens: 150, outputTokens: 60, reasoningTokens: 48 })
    .expect(match()).withToolResults('db_describe_table').then().respondWithReasoning('Three columns: name, price_cents, stock.')
    .respondWithText('products has 3 columns.').withUsage({ inputTokens: 230, outputTokens: 40, reasoningTokens: 30 });
};

/** The parts of a result worth pinning (executionTimeMs and friends are masked by the golden compare). */
function view(result: GhostResult): unknown {
  const { conversationHistory, ...rest } = result;
  // The system prompt is long and already pinned by the recorded requests; keep the rest of the history.
  return { ...rest, conversationHistory: conversationHistory.filter((m) => m.role !== 'system') };
}

async function runRecorded(golden: GoldenFixture, p: CoreProvider, scenarios: ReturnType<typeof happy>, options: Omit<GhostOptions, 'provider'>): Promise<GhostResult> {
  // Record mode forwards the SDKs' default hosts to the mock; replay never touches it.
  const server = await startMockLLMServer({ scenarios: [scenarios] });
  try {
    golden.upstream(server.url);
    golden.input({ provider: p, userPrompt: options.userPrompt, servers: Object.keys(options.serverConfig.mcpServers) });
    return await mcpGhost({ provider: p, apiKey: 'test-key-not-secret', model: MODELS[p], retry: { baseDelayMs: 5, maxDelayMs: 50 }, ...options });
  } finally {
    await server.close();
  }
}

for (const p of PROVIDERS) {
  test(`${p} happy path golden`, async ({ golden }) => {
    const result = await runRecorded(golden, p, happy(p), {
      serverConfig: { mcpServers: { db: stdioFixture('sqlite') } },
      systemPrompt: 'You answer questions about the shop database.',
      userPrompt: 'Which product is the most expensive?',
    });
    expect(result.success).toBe(true);
    expect(result.toolChain).toHaveLength(3);
    expect(view(result)).toMatchGolden();
  });

  test(`${p} recovery path golden`, async ({ golden }) => {
    const result = await runRecorded(golden, p, recovery(p), {
      serverConfig: { mcpServers: { flaky: stdioFixture('flaky', { env: { FLAKY_FAILURES: '1' } }) } },
      systemPrompt: 'You fetch records from an unreliable backend.',
      userPrompt: 'Fetch sku-1.',
    });
    expect(result.executionMetadata.backtrackCount).toBe(1);
    expect(result.success).toBe(true);
    expect(view(result)).toMatchGolden();
  });

  // Signatures and encrypted reasoning replay byte-exact, so the replayed loop passes them back as recorded.
  test(`${p} reasoning path golden`, async ({ golden }) => {
    const options = { serverConfig: { mcpServers: { db: stdioFixture('sqlite') } }, userPrompt: 'Describe products.', model: REASONING_MODELS[p], reasoning: true };
    const result = await runRecorded(golden, p, reasoning(p), options);
    expect(result.errors).toEqual([]);
    expect(result.success).toBe(true);
    expect(result.conversationHistory.find((m) => m.role === 'assistant')?.reasoning).toBe('The products table holds the prices; describe it first.');
    expect(view(result)).toMatchGolden();
  });
}
