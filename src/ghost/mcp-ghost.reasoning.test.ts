// The ghost with reasoning on, against the mock LLM with its protocol rules on (the default): each
// provider's tool loop passes back what its API requires (thinking blocks with signatures, encrypted
// reasoning items, thought signatures, Converse reasoningContent), and a loop that drops them is refused
// by the mock as by the real API, so these tests would catch a ghost that lost them.
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { describe, expect, it } from 'vitest';
import { stdioFixture } from '../../fixtures/servers/launch.ts';
import { anthropic, gemini, openaiResponses, scenario, type MatchLike } from '../scenario/builder.ts';
import { azureOpenAI, bedrock } from '../scenario/builder-helpers.ts';
import { useMockLLM } from '../vitest/use-mock-llm.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { ghostOptionsFor, withMockLLM } from './testing/harness.ts';
import { BEDROCK_GHOST } from './testing/bedrock.ts';

const FIRST = 'The user wants the products table described; describe it first.';
const SECOND = 'Three columns came back; answer now.';

/** Reasoning then a tool call, then (after its result) reasoning then the answer. */
const thinkingChain = (name: string, on: (extra?: MatchLike) => MatchLike, model: string) =>
  scenario(name)
    .expect(on({ model })).then().respondWithReasoning(FIRST).respondWithToolCalls([{ name: 'db_describe_table', arguments: { table: 'products' } }])
    .expect(on()).withToolResults('db_describe_table').then().respondWithReasoning(SECOND).respondWithText('products has 3 columns.');

interface Case {
  on: (extra?: MatchLike) => MatchLike;
  model: string;
  /** The reasoning each turn shows: Claude with a thinking budget thinks once per turn (tool results continue it). */
  shown: Array<string | undefined>;
  /** The reasoning as passed back in the second request, read from its raw body. */
  passedBack: (raw: any) => unknown[];
  /** Strips what the API requires from an outgoing body (what a careless loop does). */
  drop: (body: any) => void;
}

const CASES: Record<'openai' | 'anthropic' | 'gemini', Case> = {
  openai: {
    on: openaiResponses,
    model: 'o4-mini',
    shown: [FIRST, SECOND],
    passedBack: (raw) => raw.input.filter((i: any) => i.type === 'reasoning'),
    drop: (body) => (body.input = body.input?.filter((i: any) => i.type !== 'reasoning')),
  },
  anthropic: {
    on: anthropic,
    model: 'claude-sonnet-4-6',
    shown: [FIRST, undefined],
    passedBack: (raw) => raw.messages.flatMap((m: any) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'thinking') : [])),
    drop: (body) => body.messages?.forEach((m: any) => Array.isArray(m.content) && (m.content = m.content.filter((b: any) => b.type !== 'thinking'))),
  },
  gemini: {
    on: gemini,
    model: 'gemini-3-pro-preview',
    shown: [FIRST, SECOND],
    passedBack: (raw) => raw.contents.flatMap((c: any) => (c.role === 'model' ? c.parts.filter((p: any) => p.functionCall && p.thoughtSignature) : [])),
    drop: (body) => body.contents?.forEach((c: any) => c.parts?.forEach((p: any) => delete p.thoughtSignature)),
  },
};

/** A fetch that rewrites every JSON request body with `edit` before sending it. */
function rewriting(edit: (body: any) => void): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const text = await request.text();
    if (!text) return fetch(request);
    const body = JSON.parse(text);
    edit(body);
    return fetch(new Request(request, { body: JSON.stringify(body) }));
  };
}

describe.each(Object.keys(CASES) as Array<keyof typeof CASES>)('%s with reasoning on', (p) => {
  const c = CASES[p];
  const options = (server: { url: string }, extra: object = {}) =>
    ghostOptionsFor(p, server, { serverConfig: { mcpServers: { db: stdioFixture('sqlite') } }, userPrompt: 'Describe products.', model: c.model, reasoning: true, ...extra });

  it('passes back what the API requires through the tool loop: the mock (rules on) answers every turn', async () => {
    const { result, requests } = await withMockLLM([thinkingChain(`think-${p}`, c.on, c.model)], async (server) => ({
      result: await mcpGhost(options(server)),
      requests: server.mock.requests,
    }));
    expect(result.errors).toEqual([]);
    expect(result.success).toBe(true);
    expect(result.finalResult).toBe('products has 3 columns.');
    expect(requests.map((r) => r.violation)).toEqual([undefined, undefined]);
    // The reasoning was asked for, shown to the ghost, and carried into its history.
    const assistants = result.conversationHistory.filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => m.reasoning)).toEqual(c.shown);
    expect(c.passedBack(requests[1].request!.raw)).toHaveLength(1);
  });

  it('a loop that drops it is refused, as the real API refuses it', async () => {
    const { result, requests } = await withMockLLM([thinkingChain(`drop-${p}`, c.on, c.model)], async (server) => ({
      result: await mcpGhost(options(server, { fetch: rewriting(c.drop), retry: { maxRetries: 0 } })),
      requests: server.mock.requests,
    }));
    expect(result.success).toBe(false);
    expect(result.executionMetadata.stopReason).toBe('llm_error');
    expect(requests[1].violation?.rule).toEqual(expect.any(String));
    expect(result.errors[0].error).toMatch(/400/);
  });
});

describe('azure-openai with reasoning on', () => {
  it('runs the stateless Responses loop on the deployment, encrypted reasoning passed back', async () => {
    const mock = useMockLLM(thinkingChain('think-azure', azureOpenAI, 'my-o4'));
    const result = await mcpGhost({
      provider: 'azure-openai',
      endpoint: 'https://contoso.openai.azure.com',
      apiKey: 'azure-key',
      apiVersion: '2025-04-01-preview',
      deployment: 'my-o4',
      reasoning: { effort: 'low' },
      serverConfig: { mcpServers: { db: stdioFixture('sqlite') } },
      userPrompt: 'Describe products.',
    });
    expect(result.errors).toEqual([]);
    expect(result.success).toBe(true);
    expect(result.conversationHistory.filter((m) => m.role === 'assistant').map((m) => m.reasoning)).toEqual([FIRST, SECOND]);
    mock.assertAllConsumed();
    const second = mock.requests[1].request!.raw as { store: boolean; input: Array<{ type?: string; encrypted_content?: string }> };
    expect(second.store).toBe(false);
    expect(second.input.filter((i) => i.type === 'reasoning')).toEqual([expect.objectContaining({ encrypted_content: expect.any(String) })]);
    expect(mock.requests.map((r) => r.violation)).toEqual([undefined, undefined]);
  });
});

describe('bedrock with reasoning on', () => {
  it('passes Converse reasoningContent back with its signature', async () => {
    const model = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
    const mock = useMockLLM(thinkingChain('think-bedrock', bedrock, model));
    const result = await mcpGhost({ ...BEDROCK_GHOST, model, reasoning: { budgetTokens: 1024 }, requestHandler: new NodeHttpHandler() });
    expect(result.errors).toEqual([]);
    expect(result.success).toBe(true);
    // Claude with a thinking budget thinks once per turn: the tool result continues it, without new thinking.
    expect(result.conversationHistory.filter((m) => m.role === 'assistant').map((m) => m.reasoning)).toEqual([FIRST, undefined]);
    mock.assertAllConsumed();
    const [first, second] = mock.requests.map((r) => r.request!.raw as any);
    expect(first.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(first.inferenceConfig.maxTokens).toBeGreaterThan(1024);
    const reasoning = second.messages.flatMap((m: any) => m.content).filter((b: any) => b.reasoningContent);
    expect(reasoning).toEqual([{ reasoningContent: { reasoningText: { text: FIRST, signature: expect.any(String) } } }]);
    expect(mock.requests.map((r) => r.violation)).toEqual([undefined, undefined]);
  });
});
