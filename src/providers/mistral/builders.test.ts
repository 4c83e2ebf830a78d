import { Mistral } from '@mistralai/mistralai';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { mistral, ollama, openai, scenario } from '../../index.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';

describe('builder helpers for Mistral and Ollama', () => {
  let server: MockLLMServer | undefined;
  afterEach(async () => server?.close());

  it('mistral() and ollama() each match only their provider, beside openai() on the shared chat path', async () => {
    const steps = [
      scenario('m').expect(mistral()).then().respondWithText('from mistral').build(),
      scenario('o').expect(ollama()).then().respondWithText('from ollama').build(),
      scenario('a').expect(openai()).then().respondWithText('from openai').build(),
    ];
    server = await startMockLLMServer({ scenarios: steps });
    const url = server.url;
    // Asked in the reverse order of the steps, so only the provider match can pick each answer.
    const fromOpenAI = await new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 })
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const fromOllama = await new Ollama({ host: url }).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] });
    const fromMistral = await new Mistral({ apiKey: 'k', serverURL: url, retryConfig: { strategy: 'none' } })
      .chat.complete({ model: 'mistral-small-latest', messages: [{ role: 'user', content: 'hi' }] });
    expect([fromMistral.choices[0].message?.content, fromOllama.message.content, fromOpenAI.choices[0].message.content])
      .toEqual(['from mistral', 'from ollama', 'from openai']);
    expect(server.mock.unconsumed()).toEqual([]);
  });
});
