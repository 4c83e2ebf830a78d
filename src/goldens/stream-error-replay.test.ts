// A stream that failed midway, recorded through each official SDK: the golden keeps the frames
// up to and with the API's own error event, its summary keeps the failure, and replay (the upstream
// stopped) makes the SDK throw the same error after the same text.
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import type { ScenarioInput } from '../scenario/schema.ts';
import { recordThrough, replayThrough, tempRuntime } from './testing/runtime.ts';
import { describeDrift } from './drift.ts';

const failing: ScenarioInput = {
  name: 'flaky',
  steps: [{ respond: { text: 'Half of this answer arrives before the failure.', stream: { chunkSize: 4, errorAfterChunks: 6, error: { message: 'The upstream model failed.', status: 503 } } }, consume: false }],
};

/** What the SDK saw: the text before the failure and its own error's fields. */
interface Seen {
  text: string;
  error: { name: string; message: string; type: string | null; status: number | null };
}

async function until(open: () => Promise<AsyncIterable<unknown>> | AsyncIterable<unknown>, textOf: (chunk: any) => string): Promise<{ text: string; err: unknown }> {
  let text = '';
  try {
    for await (const chunk of await open()) text += textOf(chunk);
  } catch (err) {
    return { text, err };
  }
  throw new Error(`the stream ended without an error (text: ${JSON.stringify(text)})`);
}

const sdks: Record<string, () => Promise<Seen>> = {
  openai: async () => {
    const client = new OpenAI({ apiKey: 'sk-sdk-test', maxRetries: 0 });
    const { text, err } = await until(() => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true }), (c) => c.choices[0]?.delta.content ?? '');
    if (!(err instanceof OpenAI.APIError)) throw new Error(`expected an OpenAI.APIError, got ${String(err)}`);
    return { text, error: { name: 'APIError', message: (err.error as { message: string }).message, type: err.type ?? null, status: err.status ?? null } };
  },
  anthropic: async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-sdk-test', maxRetries: 0 });
    const { text, err } = await until(
      () => client.messages.create({ model: 'claude-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], stream: true }),
      (e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : ''),
    );
    if (!(err instanceof Anthropic.APIError)) throw new Error(`expected an Anthropic APIError, got ${String(err)}`);
    return { text, error: { name: 'APIError', message: err.apiMessage ?? '', type: err.type, status: err.status ?? null } };
  },
  gemini: async () => {
    const client = new GoogleGenAI({ apiKey: 'g-sdk-test-key' });
    const { text, err } = await until(() => client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' }), (c) => c.text ?? '');
    if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
    return { text, error: { name: 'ApiError', message: err.message, type: null, status: err.status } };
  },
};

describe.each(Object.keys(sdks))('%s SDK: a stream that failed midway, recorded → replayed', (name) => {
  it('keeps the error event in the golden and its summary, and replays it to the same SDK error', async () => {
    const run = sdks[name];
    const { recorded, golden, root, file } = await recordThrough(failing, 'flaky.test.ts', name, run);
    expect(recorded.text.length).toBeGreaterThan(0);
    expect('Half of this answer arrives before the failure.'.startsWith(recorded.text)).toBe(true);
    expect(recorded.text).not.toBe('Half of this answer arrives before the failure.');
    expect(recorded.error.message).toContain('The upstream model failed.');

    const [interaction] = golden.interactions;
    expect(interaction.response.status).toBe(200);
    // The error event is the last recorded frame: the stream ended there.
    expect(interaction.response.events!.at(-1)!.data).toContain('The upstream model failed.');
    expect(interaction.summary).toMatchObject({ text: recorded.text, error: { message: 'The upstream model failed.' } });

    const { replayed, action } = await replayThrough(root, file, name, run);
    expect(replayed).toEqual(recorded);
    expect(action).toBe('replayed');
  });
});

describe('drift', () => {
  it('reports a stream that now fails, or no longer does', async () => {
    const server = await startMockLLMServer({ scenarios: [failing] });
    const { runtime, root } = tempRuntime('record');
    const session = runtime.session(join(root, 'd.test.ts'), 'd');
    session.setUpstream(server.url);
    await session.intercept();
    await sdks.openai();
    await runtime.finish(join(root, 'd.test.ts'), 'd', true);
    await server.close();
    const failed = session.golden()!;
    const clean = structuredClone(failed);
    delete clean.interactions[0].summary!.error;
    expect(describeDrift(clean, failed)).toEqual(['stream errors: (none) ⇒ "The upstream model failed."']);
    expect(describeDrift(failed, failed)).toEqual([]);
  });
});
