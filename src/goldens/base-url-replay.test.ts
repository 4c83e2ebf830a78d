// A golden recorded through a local base URL (`ghostwire serve` on a random port) replays on the API
// request it was, not on the origin that carried it: through the provider's default host, another base
// URL, or the same (now dead) one. Requests the golden cannot answer fail with the golden's own message.
import { createServer } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema.ts';
import { startMockLLMServer } from '../transports/server.ts';
import { tempRuntime } from './testing/runtime.ts';

const scenario = { name: 'greet', steps: [{ respond: { text: 'Hello from the recorded server.' }, consume: false }] } as unknown as ScenarioInput;

/** A loopback port nobody listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function ask(baseURL: string | undefined, content = 'Say hello'): Promise<string> {
  const client = new OpenAI({ apiKey: 'sk-base-url-test', maxRetries: 0, ...(baseURL ? { baseURL } : {}) });
  const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
  return completion.choices[0].message.content ?? '';
}

/** Records one call through `http://127.0.0.1:<random>/v1`, then stops that server. */
async function recordThroughLocalServer(): Promise<{ root: string; testFile: string; recordedUrl: string }> {
  const server = await startMockLLMServer({ scenarios: [scenario] });
  const { runtime, root } = tempRuntime('record');
  const testFile = join(root, 'base-url.test.ts');
  const session = runtime.session(testFile, 'greets');
  await session.intercept();
  expect(await ask(`${server.url}/v1`)).toBe('Hello from the recorded server.');
  await runtime.finish(testFile, 'greets', true);
  await server.close();
  const recordedUrl = session.golden()!.interactions[0].request.url;
  expect(recordedUrl).toBe(`${server.url}/v1/chat/completions`);
  return { root, testFile, recordedUrl };
}

describe('goldens recorded through a base URL', () => {
  it('replays through the default host, another base URL and the dead recorded one', async () => {
    const { root, testFile, recordedUrl } = await recordThroughLocalServer();
    const other = `http://127.0.0.1:${await deadPort()}/v1`;
    for (const baseURL of [undefined, other, new URL('/v1', recordedUrl).href, 'https://gateway.example.test/openai/v1']) {
      const { runtime } = tempRuntime('replay', {}, root);
      await runtime.session(testFile, 'greets').intercept();
      expect(await ask(baseURL)).toBe('Hello from the recorded server.');
      expect((await runtime.finish(testFile, 'greets', true))?.action).toBe('replayed');
    }
  });

  it('answers an unmatched request to the recorded (dead) origin with the golden mismatch, not the network', async () => {
    const { root, testFile, recordedUrl } = await recordThroughLocalServer();
    const { runtime } = tempRuntime('replay', {}, root);
    await runtime.session(testFile, 'greets').intercept();
    const error = await ask(new URL('/v1', recordedUrl).href, 'Say goodbye').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((error as Error).message)).toMatch(/no recorded interaction matches POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    const failure = await runtime.finish(testFile, 'greets', true).catch((e: unknown) => e as Error);
    expect((failure as Error).message).toMatch(/no recorded interaction matches/);
    expect((failure as Error).message).toContain('"Say hello" → "Say goodbye"');
    expect((failure as Error).message).not.toMatch(/\$\.url/);
  });

  it('fails a missing golden with "no golden recorded" when the client points at a dead base URL', async () => {
    const { runtime, root } = tempRuntime('replay');
    const testFile = join(root, 'missing.test.ts');
    await runtime.session(testFile, 'never recorded').intercept();
    const error = await ask(`http://127.0.0.1:${await deadPort()}/v1`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((error as Error).message)).toMatch(/no golden recorded for "never recorded"/);
    await expect(runtime.finish(testFile, 'never recorded', true)).rejects.toThrow(/no golden recorded/);
  });
});
