// A golden that cannot answer a request (no golden recorded, or no interaction matches) answers in the
// called API's own error shape in-process, as the real port does: each official SDK throws its APIError
// carrying the mismatch text, not a generic body it cannot read.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema.ts';
import { GoldenMismatchError } from './errors.ts';
import { recordThrough, tempRuntime } from './testing/runtime.ts';

const answer: ScenarioInput = { name: 'hello', steps: [{ respond: { text: 'Hello.' }, consume: false }] };

/** One call per API, with the question as given; and what its SDK's error says (status, body). */
const CLIENTS: Record<'anthropic' | 'openai' | 'gemini', { ask: (q: string) => Promise<unknown>; read: (error: unknown) => { status: number | undefined; message: string; sdkMessage: string } }> = {
  anthropic: {
    ask: async (q: string) => (await new Anthropic({ apiKey: 'sk-ant-shape', maxRetries: 0 }).messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: q }] })).content,
    read(error: unknown) {
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const e = error as InstanceType<typeof Anthropic.APIError>;
      // Anthropic's error body: { type: 'error', error: { type, message }, request_id }.
      expect(e.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
      expect(e.requestID).toMatch(/^req_/);
      return { status: e.status, message: (e.error as { error: { message: string } }).error.message, sdkMessage: e.message };
    },
  },
  openai: {
    ask: async (q: string) => (await new OpenAI({ apiKey: 'sk-shape', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: q }] })).choices,
    read(error: unknown) {
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const e = error as InstanceType<typeof OpenAI.APIError>;
      expect(e.type).toBe('invalid_request_error');
      return { status: e.status, message: (e.error as { message: string }).message, sdkMessage: e.message };
    },
  },
  gemini: {
    ask: async (q: string) => (await new GoogleGenAI({ apiKey: 'gemini-shape' }).models.generateContent({ model: 'gemini-2.5-flash', contents: q })).text,
    read(error: unknown) {
      expect(error).toBeInstanceOf(ApiError);
      const e = error as ApiError;
      // Google's error body: { error: { code, message, status } }, which the SDK's message is.
      const body = JSON.parse(e.message) as { error: { code: number; message: string; status: string } };
      expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      return { status: e.status, message: body.error.message, sdkMessage: e.message };
    },
  },
};

describe.each(Object.keys(CLIENTS) as Array<keyof typeof CLIENTS>)('%s: golden errors in-process take the API\'s own shape', (name) => {
  const client = CLIENTS[name];

  it('a request no interaction matches: the SDK throws its APIError with the mismatch diff', async () => {
    const { root, file } = await recordThrough(answer, 'agent.test.ts', 'greets', () => client.ask('Hi there'));
    const { runtime } = tempRuntime('replay', {}, root);
    await runtime.session(file, 'greets').intercept();
    const error = await client.ask('Something else').then(() => null, (e: unknown) => e);
    const failed = await runtime.finish(file, 'greets', true).catch((e: unknown) => e);
    const read = client.read(error);
    expect(read.status).toBe(400);
    expect(read.message).toContain('no recorded interaction matches');
    expect(read.message).toContain('Something else');
    expect(read.sdkMessage).toContain('no recorded interaction matches');
    expect(failed).toBeInstanceOf(GoldenMismatchError);
  });

  it('no golden recorded: the SDK throws its APIError saying how to record one', async () => {
    const { runtime, root } = tempRuntime('replay');
    const file = `${root}/agent.test.ts`;
    await runtime.session(file, 'never recorded').intercept();
    const error = await client.ask('Hi there').then(() => null, (e: unknown) => e);
    const failed = await runtime.finish(file, 'never recorded', true).catch((e: unknown) => e);
    const read = client.read(error);
    expect(read.status).toBe(400);
    expect(read.message).toContain('no golden recorded for "never recorded"');
    expect(failed).toBeInstanceOf(GoldenMismatchError);
  });
});
