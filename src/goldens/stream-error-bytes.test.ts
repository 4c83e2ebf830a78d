// Recorded bytes of streams that failed, in each API's own formatting (Anthropic's spaced JSON,
// Google's CRLF frames), served by a plain upstream and recorded through the official SDKs: the
// golden keeps every frame, and its summary keeps the failure the API's error event described.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempRuntime } from './testing/runtime.ts';

const OPENAI = [
  'data: {"id":"chatcmpl-Bx1","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_a1","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}\n\n',
  'data: {"id":"chatcmpl-Bx1","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_a1","choices":[{"index":0,"delta":{"content":"Partly"},"logprobs":null,"finish_reason":null}]}\n\n',
  'data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}\n\n',
].join('');

const ANTHROPIC = [
  'event: message_start\ndata: {"type": "message_start", "message": {"id": "msg_01AbCdEfGhIjKlMnOpQrStUv", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-5", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 12, "output_tokens": 1}}}\n\n',
  'event: content_block_start\ndata: {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}\n\n',
  'event: ping\ndata: {"type": "ping"}\n\n',
  'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Partly"}}\n\n',
  'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n',
].join('');

const GEMINI = [
  'data: {"candidates": [{"content": {"parts": [{"text": "Partly"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 4,"candidatesTokenCount": 1,"totalTokenCount": 5},"modelVersion": "gemini-2.5-flash","responseId": "rId0aPqXAbCdEf"}\r\n\r\n',
  'data: {"error": {"code": 503,"message": "The model is overloaded. Please try again later.","status": "UNAVAILABLE"}}\r\n\r\n',
].join('');

const BODIES: Record<string, string> = { openai: OPENAI, anthropic: ANTHROPIC, gemini: GEMINI };

let upstream: Server;
let url: string;
beforeAll(async () => {
  // Answers every request with the recorded stream its path names.
  upstream = createServer((req, res) => {
    req.resume();
    const body = req.url!.includes('/messages') ? ANTHROPIC : req.url!.includes('streamGenerateContent') ? GEMINI : OPENAI;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

async function until(open: () => Promise<AsyncIterable<any>>, textOf: (chunk: any) => string): Promise<{ text: string; err: unknown }> {
  let text = '';
  try {
    for await (const chunk of await open()) text += textOf(chunk);
  } catch (err) {
    return { text, err };
  }
  throw new Error('the stream ended without an error');
}

const calls: Record<string, () => Promise<{ text: string; err: unknown }>> = {
  openai: () => until(() => new OpenAI({ apiKey: 'sk-bytes', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true }), (c) => c.choices[0]?.delta.content ?? ''),
  anthropic: () =>
    until(
      () => new Anthropic({ apiKey: 'sk-ant-bytes', maxRetries: 0 }).messages.create({ model: 'claude-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], stream: true }),
      (e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : ''),
    ),
  gemini: () => until(() => new GoogleGenAI({ apiKey: 'g-bytes' }).models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' }), (c) => c.text ?? ''),
};

const expected: Record<string, { error: { message: string; type: string | null; status: number | null }; thrown: (err: unknown) => boolean }> = {
  openai: { error: { message: 'The server had an error while processing your request.', type: 'server_error', status: null }, thrown: (e) => e instanceof OpenAI.APIError && e.type === 'server_error' },
  anthropic: { error: { message: 'Overloaded', type: 'overloaded_error', status: null }, thrown: (e) => e instanceof Anthropic.APIError && e.type === 'overloaded_error' },
  gemini: { error: { message: 'The model is overloaded. Please try again later.', type: 'UNAVAILABLE', status: 503 }, thrown: (e) => e instanceof ApiError && e.status === 503 },
};

describe.each(Object.keys(BODIES))('%s: recorded bytes of a failed stream', (name) => {
  it("record keeps every frame, the summary keeps the API's error, the SDK threw its own", async () => {
    const { runtime, root } = tempRuntime('record');
    const file = join(root, 'bytes.test.ts');
    const session = runtime.session(file, name);
    session.setUpstream(url);
    await session.intercept();
    const { text, err } = await calls[name]();
    await runtime.finish(file, name, true);
    expect(text).toBe('Partly');
    expect(expected[name].thrown(err)).toBe(true);
    const [interaction] = session.golden()!.interactions;
    expect(interaction.response.events!.map((e) => e.data).join('')).toBe(BODIES[name]);
    expect(interaction.summary).toMatchObject({ text: 'Partly', error: expected[name].error });
  });
});
