import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useMockLLM } from '../vitest/use-mock-llm.ts';

/** The Vitest face: useMockLLM routes each SDK's default host to this test's mock. */
describe('useMockLLM with the Anthropic, Gemini, Responses and embeddings adapters', () => {
  it('answers all four wire APIs from one scenario inside a test', async () => {
    const mock = useMockLLM({
      name: 'per-provider',
      steps: [
        { match: { provider: 'anthropic' }, respond: { text: 'from claude' } },
        { match: { provider: 'gemini' }, respond: { text: 'from gemini' } },
        { match: { provider: 'openai-responses' }, respond: { text: 'from responses' } },
      ],
    });
    const anthropic = new Anthropic({ apiKey: 'k', maxRetries: 0 });
    const google = new GoogleGenAI({ apiKey: 'k' });
    const openai = new OpenAI({ apiKey: 'k', maxRetries: 0 });
    const claude = await anthropic.messages.create({ model: 'claude-opus-5-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    const gemini = await google.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' });
    const responses = await openai.responses.create({ model: 'gpt-4.1', input: 'x' });
    const embedded = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: 8 });
    expect([claude.content[0].type === 'text' ? claude.content[0].text : '', gemini.text, responses.output_text]).toEqual([
      'from claude',
      'from gemini',
      'from responses',
    ]);
    expect(embedded.data[0].embedding).toHaveLength(8);
    expect(mock.requests.map((r) => r.provider)).toEqual(['anthropic', 'gemini', 'openai-responses', 'embeddings']);
    mock.assertAllConsumed();
  });

  it('leaves the next test without the previous mock (its steps do not leak)', async () => {
    const mock = useMockLLM({ name: 'fresh', steps: [{ respond: { text: 'fresh' } }] });
    const message = await new Anthropic({ apiKey: 'k', maxRetries: 0 }).messages.create({
      model: 'claude-opus-5-5',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(message.content[0]).toMatchObject({ text: 'fresh' });
    expect(mock.requests).toHaveLength(1);
  });
});
