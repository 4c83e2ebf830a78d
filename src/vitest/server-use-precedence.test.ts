// A user's test file with its own MSW server and a `server.use()` override of an LLM API. Which answers:
// within a test that has a ghostwire mock of that API, ghostwire does (its handler runs before the user's,
// for the hosts the test's mock claims); in a test without one, the user's override does.
import { scenario } from 'ghostwire';
import { afterAll, afterEach, beforeAll, describe, expect, test, useMockLLM } from 'ghostwire/vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
const ask = async () => (await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content;
const override = () =>
  server.use(
    http.post('https://api.openai.com/v1/chat/completions', () =>
      HttpResponse.json({ id: 'chatcmpl-override', object: 'chat.completion', created: 0, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'from the override', refusal: null }, logprobs: null, finish_reason: 'stop' }] }),
    ),
  );

describe('server.use() beside ghostwire', () => {
  test("in a test with a ghostwire mock of the API, ghostwire answers before the user's override", async () => {
    useMockLLM(scenario('hi').respondWithText('from ghostwire'));
    override();
    expect(await ask()).toBe('from ghostwire');
  });

  test("in a test without one, the user's override answers", async () => {
    override();
    expect(await ask()).toBe('from the override');
  });
});
