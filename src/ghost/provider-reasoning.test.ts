// The ghost's turns that carried reasoning go back in each provider's own terms, in the answer's order
// (signatures and encrypted content untouched), minus the calls the loop did not run; turns without
// reasoning are rebuilt from text and calls as before.
import { describe, expect, it } from 'vitest';
import { toConverseMessages } from './bedrock-converse.ts';
import { fromResponse, responsesBody, toResponsesInput } from './openai-responses-wire.ts';
import { nativeTurn, toAnthropicMessages } from './provider-anthropic.ts';
import { nativeParts, toGeminiContents } from './provider-gemini.ts';
import type { GhostMessage, GhostToolCall, NativeTurn } from './provider.ts';

const call = (id: string, name = 'get_weather'): GhostToolCall => ({ id, name, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' });
const turn = (native: NativeTurn, calls: GhostToolCall[] | undefined): GhostMessage[] => [
  { role: 'user', content: 'Weather?' },
  { role: 'assistant', content: '', native, ...(calls ? { toolCalls: calls } : {}) },
  ...(calls ?? []).map((c): GhostMessage => ({ role: 'tool', content: 'sunny', toolCallId: c.id, toolName: c.name })),
];

describe('Anthropic', () => {
  const content = [
    { type: 'thinking', thinking: 'Call the tool.', signature: 'EqQBCkYIARgCIkD' },
    { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
    { type: 'text', text: 'Checking.', citations: null },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' }, caller: { type: 'direct' } },
  ] as never;

  it('the answer\'s blocks become params (thinking with its signature first), only when it thought', () => {
    expect(nativeTurn(content)?.items).toEqual([
      { type: 'thinking', thinking: 'Call the tool.', signature: 'EqQBCkYIARgCIkD' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(nativeTurn([{ type: 'text', text: 'hi', citations: null }] as never)).toBeUndefined();
  });

  it('goes back as it came; a call the loop did not run is left out, the thinking stays', () => {
    const native = nativeTurn(content)!;
    expect(toAnthropicMessages(turn(native, [call('toolu_1')])).messages[1].content).toEqual(native.items);
    expect(toAnthropicMessages(turn(native, undefined)).messages[1].content).toEqual(native.items.slice(0, 3));
    // Nothing but thinking left: rebuilt from the text, as a turn without reasoning is.
    const thinkingOnly = { provider: 'anthropic' as const, items: [native.items[0], native.items[3]] };
    expect(toAnthropicMessages(turn(thinkingOnly, undefined)).messages[1].content).toEqual([{ type: 'text', text: '(no content)' }]);
  });
});

describe('Gemini', () => {
  const parts = [
    { text: 'Thinking about Paris.', thought: true },
    { text: 'Checking.' },
    { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQB0e2Kb' },
  ];

  it('parts with thoughts or signatures go back unchanged, each signature on its part', () => {
    const native = nativeParts(parts)!;
    expect(toGeminiContents(turn(native, [call('ghost-call-1')])).contents[1]).toEqual({ role: 'model', parts });
    expect(toGeminiContents(turn(native, undefined)).contents[1].parts).toEqual(parts.slice(0, 2));
    expect(nativeParts([{ text: 'plain' }])).toBeUndefined();
  });
});

describe('Bedrock Converse', () => {
  it('reasoningContent goes back with its signature and redacted bytes, in order', () => {
    const blocks = [
      { reasoningContent: { reasoningText: { text: 'Call the tool.', signature: 'sig-1' } } },
      { reasoningContent: { redactedContent: new Uint8Array([1, 2, 3]) } },
      { text: 'Checking.' },
      { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } },
    ];
    const native: NativeTurn = { provider: 'bedrock', items: blocks };
    expect(toConverseMessages(turn(native, [call('tooluse_1')])).messages[1].content).toEqual(blocks);
    expect(toConverseMessages(turn(native, undefined)).messages[1].content).toEqual(blocks.slice(0, 3));
  });
});

describe('OpenAI Responses (reasoning mode)', () => {
  const response = {
    id: 'resp_1',
    model: 'o4-mini',
    status: 'completed',
    output: [
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Call the tool.' }], encrypted_content: 'gAAAAB' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
    ],
    usage: { input_tokens: 10, output_tokens: 30, total_tokens: 40, output_tokens_details: { reasoning_tokens: 24 } },
  } as never;

  it('reads the answer: calls, the summary as reasoning, the items to pass back', () => {
    const completion = fromResponse(response, 'openai', 0);
    expect(completion.toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' }]);
    expect(completion.reasoning).toBe('Call the tool.');
    expect(completion.finishReason).toBe('tool_calls');
    expect(completion.native?.items).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Call the tool.' }], encrypted_content: 'gAAAAB' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
  });

  it('a stateless request: the reasoning item beside its call, then the output; nothing stored, encrypted reasoning asked', () => {
    const completion = fromResponse(response, 'openai', 0);
    const messages: GhostMessage[] = [{ role: 'system', content: 'Be brief.' }, ...turn(completion.native!, completion.toolCalls)];
    const body = responsesBody('o4-mini', messages, [], { effort: 'low' }, { strict: false });
    expect(body).toMatchObject({ model: 'o4-mini', instructions: 'Be brief.', store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'low', summary: 'auto' } });
    expect(body.input).toEqual([
      { role: 'user', content: 'Weather?' },
      ...completion.native!.items,
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
    ]);
    // Without its call the reasoning item would stand alone, which the API refuses: the turn is rebuilt (here: nothing to say).
    expect(toResponsesInput(turn(completion.native!, undefined)).input).toEqual([{ role: 'user', content: 'Weather?' }]);
  });
});
