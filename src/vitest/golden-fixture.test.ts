// The golden fixture shares the worker's MSW server with useMockLLM: goldens and mock LLMs coexist in
// one file, a golden takes precedence while its test runs, and mocks keep working afterwards.
import OpenAI from 'openai';
import { afterAll, describe, expect, test as base } from 'vitest';
import { goldenFixture, type GoldenFixture } from './golden-fixture.ts';
import { useMockLLM } from './use-mock-llm.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';

const test = base.extend<{ golden: GoldenFixture }>({ golden: goldenFixture });
const ask = async (): Promise<string> =>
  (await new OpenAI({ apiKey: 'sk-fixture-test', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content ?? '';
const answer = (text: string) => ({ name: text, steps: [{ respond: { text }, consume: false }] }) as never;

describe('golden fixture next to useMockLLM', () => {
  let upstream: MockLLMServer | null = null;
  afterAll(async () => upstream?.close());

  test('a mock answers before any golden', async () => {
    useMockLLM(answer('from the mock'));
    expect(await ask()).toBe('from the mock');
  });

  test('the golden answers while its test runs, even with a mock installed', async ({ golden }) => {
    if (golden.mode === 'record') {
      upstream = await startMockLLMServer({ scenarios: [answer('from the golden')] });
      golden.upstream(upstream.url);
    }
    useMockLLM(answer('from the mock'));
    expect(await ask()).toBe('from the golden');
    expect(golden.file).toMatch(/goldens\/src\/vitest\/golden-fixture\/golden-fixture-next-to-usemockllm-the-golden-answers-while-its-test-runs-even-with-a-mock-installed\.json$/);
  });

  test('mocks keep working after a golden test', async () => {
    useMockLLM(answer('mock again'));
    expect(await ask()).toBe('mock again');
  });
});
