import { describe, expect, it } from 'vitest';
import { detectWireApi, requestModel, summarizeJson, summarizeSse } from './stream-summary.ts';
import { requestMessages } from './request-view.ts';

describe('stream-summary', () => {
  it('knows which wire API a path belongs to, and the requested model', () => {
    expect(detectWireApi('POST', '/v1/chat/completions')).toBe('openai');
    expect(detectWireApi('POST', '/v1/responses')).toBe('openai-responses');
    expect(detectWireApi('POST', '/v1/messages')).toBe('anthropic');
    expect(detectWireApi('POST', '/v1beta/models/gemini-2.5-flash:streamGenerateContent')).toBe('gemini');
    expect(detectWireApi('POST', '/v1/embeddings')).toBe('embeddings');
    expect(detectWireApi('GET', '/v1/models')).toBeNull();
    expect(requestModel('gemini', '/v1/models/gemini-2.5-flash:generateContent', {})).toBe('gemini-2.5-flash');
    expect(requestModel('openai', '/v1/chat/completions', { model: 'gpt-4o' })).toBe('gpt-4o');
  });

  it('reads non-streamed answers of each provider', () => {
    expect(summarizeJson('anthropic', { content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'tu_1', name: 'get_weather', input: { city: 'Paris' } }], stop_reason: 'tool_use', usage: { input_tokens: 5, output_tokens: 3 } })).toEqual({
      text: 'Checking.',
      toolCalls: [{ id: 'tu_1', name: 'get_weather', arguments: { city: 'Paris' } }],
      finishReason: 'tool_use',
      usage: { inputTokens: 5, outputTokens: 3 },
    });
    expect(summarizeJson('gemini', { candidates: [{ content: { parts: [{ text: 'Hi' }, { functionCall: { name: 'f', args: { a: 1 } } }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2 } })).toEqual({
      text: 'Hi',
      toolCalls: [{ id: null, name: 'f', arguments: { a: 1 } }],
      finishReason: 'STOP',
      usage: { inputTokens: 4, outputTokens: 2 },
    });
    expect(summarizeJson('embeddings', { data: [], usage: { prompt_tokens: 7, total_tokens: 7 } }).usage).toEqual({ inputTokens: 7, outputTokens: 0 });
  });

  it('assembles OpenAI tool-call argument deltas split across chunks', () => {
    const frame = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
    const frames = [
      frame({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'get_weather', arguments: '{"ci' } }] } }] }),
      frame({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] } }] }),
      frame({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
      'data: [DONE]\n\n',
    ];
    expect(summarizeSse('openai', frames)).toEqual({ text: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }], finishReason: 'tool_calls', usage: null });
  });

  it('reduces each provider\'s request conversation for display, tool results included', () => {
    expect(requestMessages('anthropic', { system: 'be brief', messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: 'sunny', is_error: true }] }] })).toEqual([
      { role: 'system', text: 'be brief' },
      { role: 'tool', text: 'sunny', answers: 'tu_1', isError: true },
    ]);
    expect(requestMessages('gemini', { contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] }] })).toEqual([
      { role: 'assistant', text: '', toolCalls: [{ name: 'f', arguments: {} }] },
      { role: 'tool', text: '{"ok":true}', answers: 'f' },
    ]);
  });
});
