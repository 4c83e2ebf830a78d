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
