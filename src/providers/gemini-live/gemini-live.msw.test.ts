// Gemini Live in-process through MSW's WebSocket interception: @google/genai's web build (the global
// WebSocket, which MSW intercepts), next to the user's own handlers.
import { GoogleGenAI, Modality, type LiveServerMessage } from '@google/genai/web';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers, mockLLMRealtimeHandlers } from '../../transports/msw.ts';
import { scenario } from '../../scenario/builder.ts';

const mock = createMockLLM({
  scenarios: scenario('lights')
    .expect().withTools(['set_light']).withLastMessage({ contains: 'lights' })
    .then().respondWithToolCalls([{ name: 'set_light', arguments: { on: false } }])
    .expect().withToolResults(['set_light'])
    .then().respondWithText('The lights are off.'),
});
const server = setupServer(...mockLLMHandlers(mock), ...mockLLMRealtimeHandlers(mock));
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

test('a tool loop over Gemini Live, answered in-process', async () => {
  const ai = new GoogleGenAI({ apiKey: 'gemini-test-key' });
  const messages: LiveServerMessage[] = [];
  let wake = () => {};
  const session = await ai.live.connect({
    model: 'gemini-live-2.5-flash-preview',
    config: { responseModalities: [Modality.TEXT], tools: [{ functionDeclarations: [{ name: 'set_light', parametersJsonSchema: { type: 'object' } }] }] },
    callbacks: { onmessage: (m) => (messages.push(m), wake()) },
  });
  const until = (check: () => boolean) => new Promise<void>((resolve) => (wake = () => check() && resolve())).then(() => undefined);
  const toolCall = until(() => messages.some((m) => m.toolCall));
  session.sendClientContent({ turns: 'Turn off the lights' });
  await toolCall;
  const call = messages.find((m) => m.toolCall)!.toolCall!.functionCalls![0];
  expect(call).toMatchObject({ name: 'set_light', args: { on: false } });
  const done = until(() => messages.some((m) => m.serverContent?.turnComplete));
  session.sendToolResponse({ functionResponses: [{ id: call.id, name: 'set_light', response: { ok: true } }] });
  await done;
  expect(messages.map((m) => m.text ?? '').join('')).toBe('The lights are off.');
  mock.assertAllConsumed();
  session.close();
});

test("@google/genai's Node build (the ws package) in-process: mockLLMHandlers answers its upgrade and carries the socket", async () => {
  const { GoogleGenAI: NodeGenAI } = await import('@google/genai');
  const local = createMockLLM({ scenarios: { name: 'node', steps: [{ match: { provider: 'gemini-live', model: 'gemini-live-2.5-flash-preview' }, respond: { text: 'from the Node build' } }] } });
  server.use(...mockLLMHandlers(local, { baseUrls: ['https://gemini-gateway.test'] }));
  const messages: LiveServerMessage[] = [];
  let done = () => {};
  const turn = new Promise<void>((resolve) => (done = resolve));
  const session = await new NodeGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: 'https://gemini-gateway.test' } }).live.connect({
    model: 'gemini-live-2.5-flash-preview',
    config: { responseModalities: [Modality.TEXT] },
    callbacks: { onmessage: (m) => (messages.push(m as LiveServerMessage), m.serverContent?.turnComplete && done()) },
  });
  session.sendClientContent({ turns: 'hello' });
  await turn;
  expect(messages.map((m) => m.text ?? '').join('')).toBe('from the Node build');
  // The upgrade's headers reach the turn; the key rides in the URL, which the journal does not keep.
  expect(local.requests.find((r) => r.request)!.request!.headers['x-goog-api-client']).toMatch(/google-genai-sdk/);
  session.close();
  server.resetHandlers();
});
