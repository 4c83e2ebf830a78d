import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from './provider-anthropic.ts';
import { toGeminiContents } from './provider-gemini.ts';
import { parseArguments, type GhostMessage } from './provider.ts';
import { buildSystemPrompt } from './system-prompt.ts';

const conversation: GhostMessage[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'go' },
  { role: 'assistant', content: 'calling', toolCalls: [{ id: 'a', name: 't', arguments: { x: 1 }, rawArguments: '{"x":1}' }, { id: 'b', name: 'u', arguments: {}, rawArguments: '{}' }] },
  { role: 'tool', content: 'r1', toolCallId: 'a', toolName: 't' },
  { role: 'tool', content: 'boom', toolCallId: 'b', toolName: 'u', isError: true },
  { role: 'user', content: 'The previous approach failed.' },
];

describe('provider message conversion', () => {
  it('Anthropic: system apart; tool results and the recovery note share one user turn', () => {
    const { system, messages } = toAnthropicMessages(conversation);
    expect(system).toBe('sys');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1].content).toEqual([
      { type: 'text', text: 'calling' },
      { type: 'tool_use', id: 'a', name: 't', input: { x: 1 } },
      { type: 'tool_use', id: 'b', name: 'u', input: {} },
    ]);
    expect(messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'r1' },
      { type: 'tool_result', tool_use_id: 'b', content: 'boom', is_error: true },
      { type: 'text', text: 'The previous approach failed.' },
    ]);
  });

  it('Gemini: functionResponse parts carry the name, errors under `error`, roles user/model', () => {
    const { systemInstruction, contents } = toGeminiContents(conversation);
    expect(systemInstruction).toBe('sys');
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1].parts).toEqual([{ text: 'calling' }, { functionCall: { id: 'a', name: 't', args: { x: 1 } } }, { functionCall: { id: 'b', name: 'u', args: {} } }]);
    expect(contents[2].parts).toEqual([
      { functionResponse: { id: 'a', name: 't', response: { result: 'r1' } } },
      { functionResponse: { id: 'b', name: 'u', response: { error: 'boom' } } },
      { text: 'The previous approach failed.' },
    ]);
  });

  it('parseArguments never throws and explains what is wrong', () => {
    expect(parseArguments('{"a":1}')).toEqual({ arguments: { a: 1 }, rawArguments: '{"a":1}' });
    expect(parseArguments('')).toEqual({ arguments: {}, rawArguments: '' });
    expect(parseArguments('[1]').parseError).toMatch(/must be a JSON object, got an array/);
    expect(parseArguments('{"a":').parseError).toMatch(/not valid JSON/);
  });
});

describe('buildSystemPrompt', () => {
  const tools = [{ name: 'db_query', original: 'db.query', description: 'Run SQL.\n  Read only.' }];
  it('puts the caller prompt first, then the tools and per-provider guidance', () => {
    const openai = buildSystemPrompt('openai', 'You analyse data.', tools, 'shop');
    expect(openai.startsWith('You analyse data.\n\n')).toBe(true);
    expect(openai).toContain('- db_query (db.query): Run SQL. Read only.');
    expect(openai).toContain('namespace "shop"');
    expect(openai).toMatch(/function calling/);
    expect(buildSystemPrompt('anthropic', '', tools)).toMatch(/tool_use blocks/);
    expect(buildSystemPrompt('gemini', '', tools)).toMatch(/function calls/);
  });
  it('says so when there are no tools', () => {
    expect(buildSystemPrompt('openai', 'x', [])).toMatch(/No tools are available/);
  });
});
