import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import { GoldenMismatchError } from './errors.ts';
import { serializeGolden } from './store.ts';
import { goldenPathFor } from './paths.ts';
import { sampleGolden } from './testing/golden.ts';
import { tempRuntime } from './testing/runtime.ts';

const echo = [{ name: 'echo', steps: [{ respond: { text: 'fresh answer' }, consume: false }] }] as never;
const ask = (content = 'hi') => new OpenAI({ apiKey: 'sk-session-test', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });

describe('GoldenSession', () => {
  it('a recording whose test fails leaves the previous golden untouched', async () => {
    const server = await startMockLLMServer({ scenarios: echo });
    const { runtime, root } = tempRuntime('record');
    const testFile = join(root, 'a.test.ts');
    const session = runtime.session(testFile, 'fails');
    mkdirSync(dirname(session.file), { recursive: true });
    writeFileSync(session.file, serializeGolden(sampleGolden()));
    const before = readFileSync(session.file, 'utf8');
    session.setUpstream(server.url);
    await session.intercept();
    expect((await ask()).choices[0].message.content).toBe('fresh answer');
    expect(await runtime.finish(testFile, 'fails', false)).toEqual({ file: 'goldens/a/fails.json', action: null, drift: [] });
    await server.close();
    expect(readFileSync(session.file, 'utf8')).toBe(before);
  });

  it('record-missing replays goldens that exist and records the ones that do not', async () => {
    const server = await startMockLLMServer({ scenarios: echo });
    const { runtime, root } = tempRuntime('record-missing');
    const testFile = join(root, 'a.test.ts');
    const file = goldenPathFor(root, 'goldens', testFile, 'agent > answers');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, serializeGolden(sampleGolden()));
    const existing = runtime.session(testFile, 'agent > answers');
    expect(existing.mode).toBe('replay');
    await existing.intercept();
    expect((await ask()).choices[0].message.content).toBe('hello');
    expect((await runtime.finish(testFile, 'agent > answers', true))?.action).toBe('replayed');

    const missing = runtime.session(testFile, 'new test');
    expect(missing.mode).toBe('record');
    missing.setUpstream(server.url);
    await missing.intercept();
    expect((await ask()).choices[0].message.content).toBe('fresh answer');
    expect((await runtime.finish(testFile, 'new test', true))?.action).toBe('written');
    await server.close();
    expect(existsSync(missing.file)).toBe(true);
  });

  it('replay without a golden fails the test with how to record it, even if the code swallowed the error', async () => {
    const { runtime, root } = tempRuntime('replay');
    const testFile = join(root, 'a.test.ts');
    await runtime.session(testFile, 'never recorded').intercept();
    await expect(ask()).rejects.toThrow(/400 no golden recorded/);
    const error = await runtime.finish(testFile, 'never recorded', true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoldenMismatchError);
    expect((error as Error).message).toContain('ghostwire test --record-goldens');
  });

  it('replay keeps every other request inside the process; local servers get non-LLM requests, LLM calls are the golden\'s', async () => {
    const local = await startMockLLMServer({ scenarios: echo });
    const { runtime, root } = tempRuntime('replay');
    const testFile = join(root, 'a.test.ts');
    await runtime.session(testFile, 'external').intercept();
    await expect(fetch('https://example.com/data')).rejects.toThrow(/fetch failed/);
    expect((await fetch(`${local.url}/not-an-llm-api`)).status).toBe(404);
    const viaLocal = new OpenAI({ apiKey: 'sk-x', baseURL: `${local.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    await expect(viaLocal).rejects.toThrow(/no golden recorded for "external"/);
    await expect(runtime.finish(testFile, 'external', true)).rejects.toThrow(/no golden recorded/);
    await local.close();
  });

  it('toMatchGolden in replay: a missing output is stored locally and refused in CI', async () => {
    const { runtime, root } = tempRuntime('replay');
    const testFile = join(root, 'a.test.ts');
    const local = runtime.session(testFile, 'value');
    expect(local.expect('output', { a: 1 }, { equals: Object.is }).pass).toBe(true);
    expect((await runtime.finish(testFile, 'value', true))?.action).toBe('written');
    expect(JSON.parse(readFileSync(local.file, 'utf8')).expected).toEqual({ output: { a: 1 } });

    const { runtime: ci } = tempRuntime('replay', {}, root, { CI: 'true' });
    const session = ci.session(testFile, 'value');
    expect(session.expect('output', { a: 1 }, { equals: Object.is }).pass).toBe(true);
    const missing = session.expect('other', { b: 2 }, { equals: Object.is });
    expect(missing.pass).toBe(false);
    expect(missing.message).toContain('missing golden output, and this run does not write new ones (CI');
  });
});

describe('recording follows the client', () => {
  it('records an LLM call to any base URL (a local server), and replays it there with the server stopped', async () => {
    const local = await startMockLLMServer({ scenarios: echo });
    const baseURL = `${local.url}/v1`;
    const { runtime, root } = tempRuntime('record');
    const testFile = join(root, 'b.test.ts');
    await runtime.session(testFile, 'local').intercept();
    const client = new OpenAI({ apiKey: 'sk-x', baseURL, maxRetries: 0 });
    expect((await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('fresh answer');
    expect((await runtime.finish(testFile, 'local', true))?.action).toBe('written');
    await local.close();
    const { runtime: replay } = tempRuntime('replay', {}, root);
    await replay.session(testFile, 'local').intercept();
    expect((await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('fresh answer');
    expect((await replay.finish(testFile, 'local', true))?.action).toBe('replayed');
  });

  it('a recording that captured no interaction fails, saying why, and writes nothing', async () => {
    const { runtime, root } = tempRuntime('record');
    const testFile = join(root, 'c.test.ts');
    const session = runtime.session(testFile, 'silent');
    await session.intercept();
    await expect(runtime.finish(testFile, 'silent', true)).rejects.toThrow(/recorded no interactions, so goldens\/c\/silent\.json was not written/);
    expect(existsSync(session.file)).toBe(false);
  });
});

describe('update mode (-u)', () => {
  it('re-derives changed outputs, keeps outputs that only differ in masked fields, drops names no longer asserted', async () => {
    const { root } = tempRuntime('replay');
    const testFile = join(root, 'u.test.ts');
    const file = goldenPathFor(root, 'goldens', testFile, 'agent > answers');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, serializeGolden(sampleGolden({ expected: { output: { answer: 'hello', id: 'run_1' }, meta: { durationMs: 10, turns: 1 }, gone: 1 } })));
    const { runtime } = tempRuntime('update', {}, root);
    const session = runtime.session(testFile, 'agent > answers');
    await session.intercept();
    expect((await ask()).choices[0].message.content).toBe('hello');
    expect(session.expect('output', { answer: 'hello again', id: 'run_2' }, { equals: Object.is }).pass).toBe(true);
    expect(session.expect('meta', { durationMs: 99, turns: 1 }, { equals: Object.is }).pass).toBe(true);
    expect((await runtime.finish(testFile, 'agent > answers', true))?.action).toBe('updated');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.expected).toEqual({ output: { answer: 'hello again', id: 'run_2' }, meta: { durationMs: 10, turns: 1 } });
    expect(written.interactions).toEqual(sampleGolden().interactions);
  });
});

describe('golden ownership', () => {
  it('refuses a golden that belongs to another test whose name maps to the same file', () => {
    const { runtime, root } = tempRuntime('replay');
    const testFile = join(root, 'a.test.ts');
    const file = goldenPathFor(root, 'goldens', testFile, 'agent > answers');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, serializeGolden(sampleGolden()));
    const other = runtime.session(testFile, 'agent: answers!');
    expect(other.file).toBe(file);
    expect(() => other.expect('output', {}, { equals: Object.is })).toThrowError(/\$\.test\.name: this golden belongs to the test "agent > answers", not "agent: answers!"/);
  });
});

describe('replay timing', () => {
  it('a test can ask for real timing after interception started', async () => {
    const { runtime, root } = tempRuntime('replay');
    const testFile = join(root, 't.test.ts');
    const file = goldenPathFor(root, 'goldens', testFile, 'agent > answers');
    mkdirSync(dirname(file), { recursive: true });
    const frames = ['data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n', 'data: [DONE]\n\n'];
    const streamed = sampleGolden().interactions[0];
    streamed.request.body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true };
    streamed.response = { status: 200, headers: { 'content-type': 'text/event-stream' }, events: frames.map((data, i) => ({ offsetMs: i * 80, data })) };
    writeFileSync(file, serializeGolden(sampleGolden({ interactions: [streamed] })));
    const session = runtime.session(testFile, 'agent > answers');
    await session.intercept();
    session.setTiming('real');
    const started = performance.now();
    const stream = await new OpenAI({ apiKey: 'sk-t', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('a');
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    await runtime.finish(testFile, 'agent > answers', true);
  });
});

describe('extra hosts', () => {
  it('records and replays a custom base URL listed in "hosts" (a gateway in front of the provider)', async () => {
    const server = await startMockLLMServer({ scenarios: echo });
    const options = { hosts: ['https://llm-gateway.internal.example'] };
    const { runtime, root } = tempRuntime('record', options);
    const testFile = join(root, 'h.test.ts');
    // SDK clients keep the `fetch` they saw when constructed; a late-bound one sees the interception
    // whenever it starts (a client built at module level would otherwise bypass it).
    const client = new OpenAI({ apiKey: 'sk-h', baseURL: 'https://llm-gateway.internal.example/v1', maxRetries: 0, fetch: (url, init) => fetch(url, init) });
    const recording = runtime.session(testFile, 'gateway');
    recording.setUpstream(server.url);
    await recording.intercept();
    expect((await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('fresh answer');
    await runtime.finish(testFile, 'gateway', true);
    await server.close();
    expect(recording.golden()?.interactions[0].request.url).toBe('https://llm-gateway.internal.example/v1/chat/completions');

    const { runtime: replay } = tempRuntime('replay', options, root);
    await replay.session(testFile, 'gateway').intercept();
    expect((await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('fresh answer');
    expect((await replay.finish(testFile, 'gateway', true))?.action).toBe('replayed');
  });
});

describe('cut streams', () => {
  it('a stream the upstream cut is recorded as interrupted and replays to the same truncated answer', async () => {
    const cut = [{ name: 'cut', steps: [{ respond: { text: 'This answer never finishes because the connection drops.', stream: { chunkSize: 5, disconnectAfterChunks: 4 } }, consume: false }] }] as never;
    const server = await startMockLLMServer({ scenarios: cut });
    const { runtime, root } = tempRuntime('record');
    const testFile = join(root, 'cut.test.ts');
    const readAll = async (): Promise<{ text: string; error: string | null }> => {
      const stream = await new OpenAI({ apiKey: 'sk-c', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });
      let text = '';
      try {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        return { text, error: null };
      } catch (error) {
        return { text, error: (error as Error).name };
      }
    };
    const recording = runtime.session(testFile, 'cut');
    recording.setUpstream(server.url);
    await recording.intercept();
    const recorded = await readAll();
    await runtime.finish(testFile, 'cut', true);
    await server.close();
    // MSW ends a mocked body quietly when its stream errors, so the client sees the same truncated
    // answer in both runs; the golden keeps the cut explicitly.
    expect(recorded.text).toBe('This answer nev');
    expect(recording.golden()?.interactions[0].response.interrupted).toBe(true);

    const { runtime: replay } = tempRuntime('replay', {}, root);
    await replay.session(testFile, 'cut').intercept();
    expect(await readAll()).toEqual(recorded);
    await replay.finish(testFile, 'cut', true);
  });
});
