import { ApiError, FinishReason, GoogleGenAI, Type, type FunctionDeclaration } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch, sseData } from '../testing/capture.ts';

function setup(scenarios: ScenarioInput[], apiVersion?: string) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const ai = new GoogleGenAI({ apiKey: 'g-test', httpOptions: { fetch, ...(apiVersion ? { apiVersion } : {}) } });
  return { mock, ai, exchanges };
}

const getWeather: FunctionDeclaration = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
};

describe('Gemini: generateContent', () => {
  it('answers generateContent on /v1 with x-goog-api-key, candidates and usageMetadata', async () => {
    const { ai, exchanges } = setup([
      { name: 'hi', steps: [{ respond: { text: 'Hello from {{model}}', usage: { inputTokens: 8, outputTokens: 5 } } }] },
    ]);
    const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    expect(response.text).toBe('Hello from gemini-2.5-flash');
    expect(response.candidates?.[0]).toMatchObject({ finishReason: FinishReason.STOP, index: 0, content: { role: 'model' } });
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 8, candidatesTokenCount: 5, totalTokenCount: 13 });
    expect(response.modelVersion).toBe('gemini-2.5-flash');
    expect(exchanges[0].url).toBe('https://generativelanguage.googleapis.com/v1/models/gemini-2.5-flash:generateContent');
  });

  it('serves /v1beta too, and maps systemInstruction, functionCall and functionResponse parts', async () => {
    const { mock, ai, exchanges } = setup(
      [
        {
          name: 'round',
          steps: [
            {
              match: {
                provider: 'gemini',
                tools: ['get_weather'],
                toolResults: ['get_weather'],
                messages: [{ role: 'system', content: { contains: 'weather bot' } }],
              },
              respond: { text: 'Sunny in Paris' },
            },
          ],
        },
      ],
      'v1beta',
    );
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-pro',
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'fc_1', name: 'get_weather', response: { sky: 'sunny' } } }] },
      ],
      config: { systemInstruction: 'You are a weather bot.', tools: [{ functionDeclarations: [getWeather] }] },
    });
    expect(response.text).toBe('Sunny in Paris');
    expect(exchanges[0].url).toContain('/v1beta/models/gemini-2.5-pro:generateContent');
    const canonical = mock.requests[0].request!;
    expect(canonical.messages).toEqual([
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'fc_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', content: '{"sky":"sunny"}', toolCallId: 'fc_1', toolName: 'get_weather' },
    ]);
    // Google's OpenAPI-subset `parameters` (uppercase types) reach the engine as JSON Schema.
    expect(canonical.tools).toEqual([
      { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    ]);
  });

  it('pairs a functionResponse without id with the latest call of that name', async () => {
    const { mock, ai } = setup([{ name: 'x', steps: [{ respond: { text: 'ok' } }] }]);
    await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [
        { role: 'user', parts: [{ text: 'q' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 1 } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'r' } } }] },
      ],
      config: { tools: [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: { type: 'object' } }] }] },
    });
    const messages = mock.requests[0].request!.messages;
    expect(messages[1].toolCalls?.[0].id).toBe(messages[2].toolCallId);
    expect(mock.requests[0].request!.tools).toEqual([{ name: 'lookup', parameters: { type: 'object' } }]);
  });

  it('renders tool calls as functionCall parts with ids; response.functionCalls exposes them', async () => {
    const { ai } = setup([
      { name: 't', steps: [{ respond: { toolCalls: [{ id: 'call_G', name: 'get_weather', arguments: { city: 'Rome' } }] } }] },
    ]);
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'weather?',
      config: { tools: [{ functionDeclarations: [getWeather] }] },
    });
    expect(response.functionCalls).toEqual([{ id: 'call_G', name: 'get_weather', args: { city: 'Rome' } }]);
    expect(response.candidates?.[0].finishReason).toBe(FinishReason.STOP);
  });

  it.each([
    ['length', FinishReason.MAX_TOKENS],
    ['content_filter', FinishReason.SAFETY],
    ['stop_sequence', FinishReason.STOP],
  ] as const)('maps finishReason %s to %s', async (finishReason, expected) => {
    const { ai } = setup([{ name: 'l', steps: [{ respond: { text: 'trunc', finishReason } }] }]);
    const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' });
    expect(response.candidates?.[0].finishReason).toBe(expected);
  });
});

describe('Gemini: generateContentStream', () => {
  it('streams data-only SSE chunks; the last carries finishReason and the function call', async () => {
    const { ai, exchanges } = setup([
      {
        name: 's',
        steps: [
          {
            respond: {
              text: 'Checking the weather',
              toolCalls: [{ id: 'call_S', name: 'get_weather', arguments: { city: 'Oslo' } }],
              usage: { inputTokens: 4, outputTokens: 6 },
              stream: { chunkSize: 10 },
            },
          },
        ],
      },
    ]);
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x', config: { tools: [{ functionDeclarations: [getWeather] }] } });
    let text = '';
    const calls: unknown[] = [];
    const finishReasons: unknown[] = [];
    for await (const chunk of stream) {
      // Read text parts directly: `chunk.text` warns when a chunk also carries function calls.
      text += chunk.candidates?.[0].content?.parts?.map((p) => p.text ?? '').join('') ?? '';
      calls.push(...(chunk.functionCalls ?? []));
      finishReasons.push(chunk.candidates?.[0].finishReason);
    }
    expect(text).toBe('Checking the weather');
    expect(calls).toEqual([{ id: 'call_S', name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(finishReasons).toEqual([undefined, undefined, FinishReason.STOP]);
    expect(exchanges[0].url).toContain(':streamGenerateContent?alt=sse');
    const body = await exchanges[0].body;
    expect(body.split('\n\n').filter((f) => f.trim()).every((f) => f.startsWith('data: '))).toBe(true);
    expect(JSON.parse(sseData(body).at(-1)!).usageMetadata).toMatchObject({ promptTokenCount: 4, candidatesTokenCount: 6 });
  });
});

describe('Gemini: errors', () => {
  it.each([400, 403, 404, 429, 500, 503])('status %i → ApiError with Google error shape', async (status) => {
    const { ai, exchanges } = setup([{ name: 'e', steps: [{ respond: { error: { status, message: `boom ${status}` } } }] }]);
    const err = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(status);
    const body = JSON.parse(await exchanges[0].body);
    expect(body).toEqual({ error: { code: status, message: `boom ${status}`, status: expect.stringMatching(/^[A-Z_]+$/) } });
  });

  // A request with no key (403) is a conformance case (conformance.test.ts); the key may come as ?key= too.
  it('accepts the key as ?key=', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'ok' } }] }] });
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    const url = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent';
    const allowed = await mock.handle(new Request(`${url}?key=abc`, { method: 'POST', body }));
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ candidates: [{ content: { parts: [{ text: 'ok' }] } }] });
  });

  it.each([
    ['missing contents', {}, 'contents is not specified'],
    ['contents not a list', { contents: 'x' }, "Invalid value at 'contents'"],
    ['bad role', { contents: [{ role: 'bot', parts: [{ text: 'x' }] }] }, 'Please use a valid role'],
    ['functionCall without name', { contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] }, 'function_call.name'],
  ])('%s → 400 INVALID_ARGUMENT naming the field; the mock keeps serving', async (_name, body, message) => {
    const mock = createMockLLM({ scenarios: [{ name: 'ok', steps: [{ respond: { text: 'fine' } }] }] });
    const url = 'https://generativelanguage.googleapis.com/v1/models/gemini-2.5-flash:generateContent';
    const headers = { 'x-goog-api-key': 'k', 'content-type': 'application/json' };
    const res = await mock.handle(new Request(url, { method: 'POST', body: JSON.stringify(body), headers }));
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(json.error.message).toContain(message);
    const ok = await mock.handle(new Request(url, { method: 'POST', body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }), headers }));
    expect(ok.status).toBe(200);
  });
});
