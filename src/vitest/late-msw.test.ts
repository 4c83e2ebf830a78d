// The user's MSW server started from a test file that imports ghostwire first (so ghostwire sealed `fetch`
// before MSW was loaded): mocks, the user's handlers and passthrough to a local server all still work.
// First, before anything loads MSW: ghostwire's setup takes the lazy path (fetch sealed by its wrapper).
import './setup.ts';
import { inProcessLayer } from './in-process.ts';
import { useMockLLM } from './use-mock-llm.ts';
import { createServer, type Server } from 'node:http';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

const server = setupServer(http.get('https://api.weather.example/now', () => HttpResponse.json({ celsius: 21 })));
const local: { server?: Server; url: string; bodies: string[] } = { url: '', bodies: [] };

const sealedBeforeMsw = globalThis.fetch;

beforeAll(async () => {
  server.listen();
  local.server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      local.bodies.push(body);
      res.end('from the local server');
    });
  });
  await new Promise<void>((r) => local.server!.listen(0, '127.0.0.1', r));
  local.url = `http://127.0.0.1:${(local.server.address() as { port: number }).port}`;
});
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await new Promise<void>((r) => local.server!.close(() => r()));
});

describe('a user MSW server loaded after ghostwire', () => {
  test('ghostwire sealed fetch with its wrapper, and MSW wrapped that', () => {
    expect(sealedBeforeMsw.name).toBe('ghostwireFetch');
    expect(globalThis.fetch).not.toBe(sealedBeforeMsw);
    expect(inProcessLayer()).toBeDefined();
  });

  test('the mock, the user handler and a passthrough request (its body once, intact) in one test', async () => {
    const mock = useMockLLM({ name: 'm', steps: [{ respond: { text: 'mocked' } }] });
    const answer = await new OpenAI({ apiKey: 'sk', maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(answer.choices[0].message.content).toBe('mocked');
    expect(await (await fetch('https://api.weather.example/now')).json()).toEqual({ celsius: 21 });
    expect(await (await fetch(`${local.url}/echo`, { method: 'POST', body: 'payload' })).text()).toBe('from the local server');
    expect(local.bodies).toEqual(['payload']);
    mock.assertAllConsumed();
  });
});
