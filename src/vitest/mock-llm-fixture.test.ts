import OpenAI from 'openai';
import { describe, expect, test as base, vi } from 'vitest';
import type { MockLLM } from '../transports/mock-llm.ts';
import { mockLLMFixture } from './use-mock-llm.ts';

const test = base.extend<{ mockLLM: MockLLM }>({ mockLLM: mockLLMFixture });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mockLLM fixture', () => {
  for (const name of ['one', 'two', 'three', 'four']) {
    test.concurrent(`concurrent test ${name} gets its own mock`, async ({ mockLLM }) => {
      mockLLM.use({ name, steps: [{ respond: { text: `answer ${name}` }, times: 2 }] });
      const client = new OpenAI({ apiKey: 'sk', maxRetries: 0 });
      for (let i = 0; i < 2; i++) {
        await sleep(name.length * 3);
        const c = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
        expect(c.choices[0].message.content).toBe(`answer ${name}`);
      }
      mockLLM.assertAllConsumed();
    });
  }

  test('sequential use works too, and starts empty', async ({ mockLLM }) => {
    expect(mockLLM.engine.scenarios).toEqual([]);
    const err = await new OpenAI({ apiKey: 'sk', maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.message).toMatch(/no scenario step matched/);
    // Said plainly, with the ways to give it some: not "no unconsumed steps are left".
    expect(err.message).toContain('This mock has no scenarios at all');
    expect(err.message).toContain('mockLLM.use(scenario(');
    expect(err.message).not.toContain('No unconsumed steps');
  });

  test('a mock whose steps are all used says so, not that it has none', async ({ mockLLM }) => {
    mockLLM.use({ name: 'once', steps: [{ respond: { text: 'only once' } }] });
    const client = new OpenAI({ apiKey: 'sk', maxRetries: 0 });
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const err = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.message).toContain('No unconsumed steps are left');
    expect(err.message).not.toContain('no scenarios at all');
  });
});

describe.concurrent('mockLLM fixture under describe.concurrent', () => {
  for (const name of ['alpha', 'bravo']) {
    test(`${name} gets its own mock`, async ({ mockLLM }) => {
      mockLLM.use({ name, steps: [{ respond: { text: `answer ${name}` } }] });
      await sleep(name === 'alpha' ? 15 : 1);
      const c = await new OpenAI({ apiKey: 'sk', maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
      expect(c.choices[0].message.content).toBe(`answer ${name}`);
    });
  }
});

describe('mockLLM fixture with fake timers', () => {
  test('vi.useFakeTimers() does not stop the mock', async ({ mockLLM }) => {
    vi.useFakeTimers();
    try {
      mockLLM.use({ name: 'timeless', steps: [{ respond: { text: 'still answers' } }] });
      const c = await new OpenAI({ apiKey: 'sk', maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
      expect(c.choices[0].message.content).toBe('still answers');
    } finally {
      vi.useRealTimers();
    }
  });
});
