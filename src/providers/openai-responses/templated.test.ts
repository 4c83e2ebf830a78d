import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { defaultAdapters } from '../registry.ts';
import { ProviderRouter } from '../router.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { capturingFetch } from '../testing/capture.ts';

/** A mock whose router's templates the test can count, answering the same text every time. */
function setup(text = 'Hello there, traveller.') {
  const router = new ProviderRouter(defaultAdapters());
  const mock = createMockLLM({ router, scenarios: [{ name: 'same', steps: [{ respond: { text }, times: 20 }] }] });
  const { fetch } = capturingFetch(mock.handle);
  const client = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 });
  return { router, mock, client };
}

/** A streamed answer's final response, as its `response.completed` event carries it. */
async function streamed(client: OpenAI, body: { model: string; input: string }): Promise<OpenAI.Responses.Response> {
  let final: OpenAI.Responses.Response | undefined;
  for await (const event of await client.responses.create({ ...body, stream: true })) if (event.type === 'response.completed') final = event.response;
  if (!final) throw new Error('no response.completed event');
  return final;
}

describe('Responses answers from templates keep their stored responses (issue 29)', () => {
  it.each([false, true])('a templated answer is retrievable and continues a conversation (stream %s)', async (stream) => {
    const { router, client } = setup();
    const answers: OpenAI.Responses.Response[] = [];
    for (let i = 0; i < 5; i++) {
      const body = { model: 'gpt-4.1', input: `hi ${i}` };
      answers.push(stream ? await streamed(client, body) : await client.responses.create(body));
    }
    // The third answer on came from the template: fresh ids all the same.
    expect(router.templates.hits).toBeGreaterThanOrEqual(3);
    expect(new Set(answers.map((a) => a.id)).size).toBe(5);
    expect(new Set(answers.map((a) => a.output[0].id)).size).toBe(5);
    // The stored object is the answer (the SDK adds `output_text` to a retrieved one, not to a stream's event).
    for (const answer of answers) expect(await client.responses.retrieve(answer.id)).toEqual({ ...answer, output_text: 'Hello there, traveller.' });
    // A templated answer's conversation is stored: the next turn sees it.
    const next = await client.responses.create({ model: 'gpt-4.1', input: 'and then?', previous_response_id: answers[4].id });
    expect(next.previous_response_id).toBe(answers[4].id);
  });

  it('a templated `store: false` answer is not stored', async () => {
    const { router, client } = setup();
    const answers: OpenAI.Responses.Response[] = [];
    for (let i = 0; i < 4; i++) answers.push(await client.responses.create({ model: 'gpt-4.1', input: `hi ${i}`, store: false }));
    expect(router.templates.hits).toBeGreaterThanOrEqual(2);
    for (const answer of answers) expect((answer as unknown as { store: unknown }).store).toBe(false);
    expect(await client.responses.retrieve(answers[3].id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });
});
