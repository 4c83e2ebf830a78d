import { describe, expect, it } from 'vitest';
import { RecordedWires } from './recorded.ts';

const wires = new RecordedWires();
const wire = (path: string, method = 'POST', host = 'https://api.example.test', headers: Record<string, string> = {}) => wires.of(method, `${host}${path}`, headers);

describe('recorded traffic, read through the adapters', () => {
  it('knows which wire API a URL belongs to (gateway prefixes too), and the requested model', () => {
    expect(wire('/v1/chat/completions').provider).toBe('openai');
    expect(wire('/v1/responses').provider).toBe('openai-responses');
    expect(wire('/v1/messages').provider).toBe('anthropic');
    expect(wire('/v1beta/models/gemini-2.5-flash:streamGenerateContent').provider).toBe('gemini');
    expect(wire('/v1/embeddings').provider).toBe('embeddings');
    expect(wire('/gateway/openai/v1/chat/completions').provider).toBe('openai');
    expect(wire('/v2/unknown').provider).toBeNull();
    expect(wire('/v1/models', 'GET', 'https://api.anthropic.com').provider).toBe('anthropic');
    expect(wire('/v1/models/gemini-2.5-flash:generateContent').reader?.model('/v1/models/gemini-2.5-flash:generateContent', {})).toBe('gemini-2.5-flash');
    expect(wire('/v1/chat/completions').reader?.model('/v1/chat/completions', { model: 'gpt-4o' })).toBe('gpt-4o');
  });

  it('takes the framing of a stream from the adapter, and none for a whole body', () => {
    expect(wire('/v1/messages').framing('text/event-stream; charset=utf-8')).toBe('sse');
    expect(wire('/v1/messages').framing('application/json')).toBeNull();
    expect(wire('/v2/unknown').framing('application/x-ndjson')).toBe('ndjson');
  });

  it('reads non-streamed answers of each provider', () => {
    expect(wire('/v1/messages').reader!.answer({ content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'tu_1', name: 'get_weather', input: { city: 'Paris' } }], stop_reason: 'tool_use', usage: { input_tokens: 5, output_tokens: 3 } })).toEqual({
      text: 'Checking.',
      toolCalls: [{ id: 'tu_1', name: 'get_weather', arguments: { city: 'Paris' } }],
      finishReason: 'tool_use',
      usage: { inputTokens: 5, outputTokens: 3 },
    });
    expect(wire('/v1/models/gemini-2.5-flash:generateContent').reader!.answer({ candidates: [{ content: { parts: [{ text: 'Hi' }, { functionCall: { name: 'f', args: { a: 1 } } }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2 } })).toEqual({
      text: 'Hi',
      toolCalls: [{ id: null, name: 'f', arguments: { a: 1 } }],
      finishReason: 'STOP',
      usage: { inputTokens: 4, outputTokens: 2 },
    });
    const embeddings = wire('/v1/embeddings').reader!;
    expect(embeddings.conversational).toBe(false);
    expect(embeddings.answer({ data: [], usage: { prompt_tokens: 7, total_tokens: 7 } }).usage).toEqual({ inputTokens: 7, outputTokens: 0 });
  });

  it('assembles OpenAI tool-call argument deltas split across chunks', () => {
    const frame = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
    const frames = [
      frame({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'get_weather', arguments: '{"ci' } }] } }] }),
      frame({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] } }] }),
      frame({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
      'data: [DONE]\n\n',
    ];
    expect(wire('/v1/chat/completions').reader!.streamedAnswer(frames)).toEqual({ text: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }], finishReason: 'tool_calls', usage: null });
  });

  it("reduces each provider's request conversation for display, tool results included", () => {
    expect(wire('/v1/messages').reader!.messages({ system: 'be brief', messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: 'sunny', is_error: true }] }] })).toEqual([
      { role: 'system', text: 'be brief' },
      { role: 'tool', text: 'sunny', answers: 'tu_1', isError: true },
    ]);
    expect(wire('/v1beta/models/g:generateContent').reader!.messages({ contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] }] })).toEqual([
      { role: 'assistant', text: '', toolCalls: [{ name: 'f', arguments: {} }] },
      { role: 'tool', text: '{"ok":true}', answers: 'f' },
    ]);
  });

  it('falls back to the stored provider id when the URL routes nowhere', () => {
    expect(wires.of('POST', 'https://x.test/custom', {}, 'anthropic').provider).toBe('anthropic');
  });
});
