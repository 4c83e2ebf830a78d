// The ghost's LLM side through the mock: transient errors retried, fatal ones reported, memory, truncation.
import { describe, expect, it } from 'vitest';
import { stdioFixture } from '../../fixtures/servers/launch.ts';
import { scenario } from '../scenario/builder.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { SUMMARY_PREFIX } from './memory.ts';
import { ghostOptionsFor, on, PROVIDERS, withMockLLM } from './testing/harness.ts';

const DB = { mcpServers: { db: stdioFixture('sqlite') } };

describe.each(PROVIDERS)('%s', (p) => {
  it('retries a transient error (429, and 529 for Anthropic) honoring retry-after, then goes on', async () => {
    const status = p === 'anthropic' ? 529 : 429;
    const s = scenario('transient')
      .expect(on(p)).then().respondWithError(status, 'slow down', { headers: { 'retry-after': '0' } })
      .expect(on(p)).then().respondWithText('Fine now.');
    const { result, statuses } = await withMockLLM([s], async (server) => ({
      result: await mcpGhost(ghostOptionsFor(p, server, { serverConfig: { mcpServers: {} }, userPrompt: 'Hi' })),
      statuses: server.mock.requests.map((r) => r.status),
    }));
    expect(statuses).toEqual([status, 200]);
    expect(result).toMatchObject({ success: true, finalResult: 'Fine now.' });
    expect(result.executionMetadata.llmRetries).toBe(1);
  });

  it('ends the run with a clear error on a non-transient error, without retrying', async () => {
    const s = scenario('fatal').expect(on(p)).then().respondWithError(400, 'bad tool schema');
    const { result, count } = await withMockLLM([s], async (server) => ({
      result: await mcpGhost(ghostOptionsFor(p, server, { serverConfig: DB, userPrompt: 'Hi' })),
      count: server.mock.requests.length,
    }));
    expect(count).toBe(1);
    expect(result.success).toBe(false);
    expect(result.executionMetadata.stopReason).toBe('llm_error');
    expect(result.errors).toEqual([{ iteration: 1, toolName: null, error: expect.stringMatching(new RegExp(`^${p} HTTP 400: .*bad tool schema`)), recoveryAction: null }]);
    expect(result.summary).toMatch(/^The LLM request failed: /);
  });

  it('summarizes older turns past the memory budget and keeps recent calls whole', async () => {
    const summarizer = scenario('summarizer').priority(10)
      .expect(on(p)).withMessage({ role: 'system', content: { contains: 'compress the earlier part' } })
      .then().respondWithText('Listed tables; described orders.').withUsage({ inputTokens: 7, outputTokens: 3 }).persistent();
    const chain = scenario('long')
      .expect(on(p)).then().respondWithToolCalls([{ id: 'l1', name: 'db_list_tables' }]).withUsage({ inputTokens: 1, outputTokens: 1 })
      .expect(on(p)).then().respondWithToolCalls([{ id: 'l2', name: 'db_describe_table', arguments: { table: 'orders' } }]).withUsage({ inputTokens: 1, outputTokens: 1 })
      .expect(on(p)).then().respondWithToolCalls([{ id: 'l3', name: 'db_describe_table', arguments: { table: 'customers' } }]).withUsage({ inputTokens: 1, outputTokens: 1 })
      .expect(on(p)).then().respondWithToolCalls([{ id: 'l4', name: 'db_query', arguments: { sql: 'SELECT * FROM orders' } }]).withUsage({ inputTokens: 1, outputTokens: 1 })
      .expect(on(p)).then().respondWithText('Done.').withUsage({ inputTokens: 1, outputTokens: 1 });
    const { result, requests } = await withMockLLM([summarizer, chain], async (server) => ({
      result: await mcpGhost(ghostOptionsFor(p, server, { serverConfig: DB, userPrompt: 'Explore.', memoryTokenBudget: 500 })),
      requests: server.mock.requests.map((r) => r.request!),
    }));
    expect(result.success).toBe(true);
    const summaries = requests.filter((r) => r.messages.some((m) => m.role === 'system' && m.content.includes('compress the earlier part')));
    expect(summaries.length).toBeGreaterThan(0);
    const last = requests.at(-1)!;
    expect(last.messages.some((m) => m.content.includes(SUMMARY_PREFIX))).toBe(true);
    // The most recent tool call and its result are still there in full.
    expect(last.messages.filter((m) => m.role === 'tool').at(-1)?.content).toContain('2026-03-09');
    expect(last.messages.filter((m) => m.role === 'tool').length).toBeLessThan(4);
    expect(result.conversationHistory.some((m) => m.content.startsWith(SUMMARY_PREFIX))).toBe(true);
    // Usage includes the summarization calls.
    expect(result.executionMetadata.tokenUsage.totalTokens).toBe(10 + summaries.length * 10);
    expect(result.executionMetadata.totalIterations).toBe(5);
  });
});

describe('context handling (provider-independent)', () => {
  it('without conversationMemory each turn sees only the prompts and the latest turn', async () => {
    const s = scenario('no-memory')
      .expect(on('openai')).then().respondWithToolCalls([{ id: 'n1', name: 'db_list_tables' }])
      .expect(on('openai')).then().respondWithToolCalls([{ id: 'n2', name: 'db_describe_table', arguments: { table: 'orders' } }])
      .expect(on('openai')).then().respondWithText('ok');
    const { result, requests } = await withMockLLM([s], async (server) => ({
      result: await mcpGhost(ghostOptionsFor('openai', server, { serverConfig: DB, userPrompt: 'Go.', conversationMemory: false })),
      requests: server.mock.requests.map((r) => r.request!),
    }));
    expect(result.success).toBe(true);
    expect(requests[2].messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(requests[2].messages[3].toolCallId).toBe('n2');
    // The result still has the whole conversation.
    expect(result.conversationHistory).toHaveLength(7);
  });

  it('truncates large tool results for the model with a note, but keeps them whole in toolChain', async () => {
    const s = scenario('big')
      .expect(on('openai')).then().respondWithToolCalls([{ id: 'b', name: 'db_query', arguments: { sql: 'SELECT * FROM orders' } }])
      .expect(on('openai')).then().respondWithText('ok');
    const { result, requests } = await withMockLLM([s], async (server) => ({
      result: await mcpGhost(ghostOptionsFor('openai', server, { serverConfig: DB, userPrompt: 'All orders.', maxToolResultChars: 60 })),
      requests: server.mock.requests.map((r) => r.request!),
    }));
    const sent = requests[1].messages.find((m) => m.role === 'tool')!.content;
    expect(sent).toMatch(/^\[\{"id":1,/);
    expect(sent).toMatch(/\[truncated by ghostwire: showing 60 of \d+ characters/);
    expect(result.toolChain[0].result).toHaveLength(5);
  });

  it('answers arguments that are not JSON (OpenAI sends a string) back to the model', async () => {
    const s = scenario('bad-json')
      .expect(on('openai')).then().respondWithToolCalls([{ id: 'j', name: 'db_query', arguments: { sql: 'SELECT 1' } }])
      .expect(on('openai')).then().respondWithText('ok');
    // The mock can only send objects; rewrite the wire body the way a confused model would.
    const breakArguments: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = await response.text();
      return new Response(body.replace(/"arguments":"[^"\\]*(?:\\.[^"\\]*)*"/, '"arguments":"{\\"sql\\": SELECT"'), { status: response.status, headers: response.headers });
    };
    const { result, requests } = await withMockLLM([s], async (server) => ({
      result: await mcpGhost(ghostOptionsFor('openai', server, { serverConfig: DB, userPrompt: 'Go.', fetch: breakArguments })),
      requests: server.mock.requests.map((r) => r.request!),
    }));
    expect(result.toolChain[0]).toMatchObject({ success: false, error: expect.stringMatching(/arguments are not valid JSON/) });
    expect(requests[1].messages.find((m) => m.role === 'assistant')?.toolCalls?.[0].arguments).toBe('{"sql": SELECT');
    expect(result.errors[0].recoveryAction).toMatch(/returned the error/);
  });

  it('rejects invalid options naming the field', async () => {
    await expect(mcpGhost({ provider: 'mistral' as never, userPrompt: 'x', serverConfig: { mcpServers: {} } })).rejects.toThrow(/options\.provider/);
    await expect(mcpGhost({ provider: 'openai', userPrompt: '', serverConfig: { mcpServers: {} } })).rejects.toThrow(/options\.userPrompt/);
    await expect(mcpGhost({ provider: 'openai', userPrompt: 'x', serverConfig: { mcpServers: { a: { cmd: 'x' } } } as never })).rejects.toThrow(/options\.serverConfig\.mcpServers\.a/);
  });
});
