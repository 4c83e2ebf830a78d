// A seeded fuzzer against every endpoint of startMockLLMServer and its admin API: a few thousand
// mutated requests (bodies, paths, methods, headers). No answer may be a 5xx (the scenarios inject
// none), the server must not fall over, and a healthy request is answered afterwards. The seed
// makes a failure reproducible: GHOSTWIRE_FUZZ_SEED=<n> runs another sequence.
import { Agent, request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from './server.ts';

const SEED = Number(process.env.GHOSTWIRE_FUZZ_SEED ?? 0x9e3779b9);
const REQUESTS = 3000;
const CONCURRENCY = 16;

/** mulberry32: a small seeded generator, so every run sends the same sequence. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENDPOINTS: { method: string; path: string; body?: unknown }[] = [
  { method: 'POST', path: '/v1/chat/completions', body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: false, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } } } } }] } },
  { method: 'POST', path: '/v1/responses', body: { model: 'gpt-4o', input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], stream: false } },
  { method: 'GET', path: '/v1/responses/resp_123' },
  { method: 'DELETE', path: '/v1/responses/resp_123' },
  { method: 'POST', path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: ['hi', 'there'], dimensions: 8 } },
  { method: 'GET', path: '/v1/models' },
  { method: 'GET', path: '/v1/models/gpt-4o' },
  { method: 'POST', path: '/v1/messages', body: { model: 'claude-sonnet-4-5', max_tokens: 10, system: 'be brief', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] } },
  { method: 'POST', path: '/v1/messages/count_tokens', body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] } },
  { method: 'POST', path: '/v1beta/models/gemini-2.0-flash:generateContent', body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { temperature: 0.5 } } },
  { method: 'POST', path: '/v1beta/models/gemini-2.0-flash:streamGenerateContent', body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] } },
  { method: 'POST', path: '/v1beta/models/gemini-2.0-flash:countTokens', body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] } },
  { method: 'POST', path: '/v1beta/models/text-embedding-004:embedContent', body: { content: { parts: [{ text: 'hi' }] }, outputDimensionality: 8 } },
  { method: 'POST', path: '/v1beta/models/text-embedding-004:batchEmbedContents', body: { requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'hi' }] } }] } },
  { method: 'GET', path: '/v1beta/models' },
  { method: 'GET', path: '/__ghostwire/health' },
  { method: 'GET', path: '/__ghostwire/sessions' },
  { method: 'POST', path: '/__ghostwire/sessions', body: { scenarios: [{ name: 'x', steps: [{ respond: { text: 'x' } }] }] } },
  { method: 'GET', path: '/__ghostwire/sessions/default' },
  { method: 'GET', path: '/__ghostwire/sessions/default/requests' },
  { method: 'POST', path: '/__ghostwire/sessions/default/scenarios', body: [{ name: 'y', priority: -1, steps: [{ respond: { text: 'y' } }] }] },
  { method: 'POST', path: '/__ghostwire/sessions/default/steps', body: { steps: [{ respond: { text: 'z' } }], priority: -5 } },
  { method: 'POST', path: '/__ghostwire/sessions/default/reset' },
  { method: 'DELETE', path: '/__ghostwire/sessions/nope' },
];

/** Values a mutation puts in place of another: wrong types, edge numbers, odd strings (no injected 5xx among them). */
const ODD_VALUES: unknown[] = [null, true, false, 0, -1, 1.5, 65_536, -0, '', ' ', '\u0000', '\ud800', '%E0%A4%A', 'x'.repeat(10_000), [], {}, [[[]]], { __proto__: { polluted: true } }, ['a', 1, null], { role: 'user' }, 'NaN'];
const JUNK_PATHS = ['/s/%/v1/models', '/v1/models/%E0%A4%A', '/s/default/v1/chat/completions', '/s/../v1/messages', '/__ghostwire/sessions/%', '/__ghostwire/sessions/default/requests/x', '/__ghostwire//sessions', '/v1/responses/%ZZ', '/v1beta/models/%:generateContent', '/v1beta/models/a:b:c', '/', '/s/', '/s/x', '/__ghostwire/', '/v1/chat/completions?x=%', '/v2/unknown'];
const CONTENT_TYPES = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8', ''];

function mutate(value: unknown, rnd: () => number, depth = 0): unknown {
  const r = rnd();
  if (depth > 6 || r < 0.08) return ODD_VALUES[Math.floor(rnd() * ODD_VALUES.length)];
  if (Array.isArray(value)) {
    const out = value.map((v) => (rnd() < 0.4 ? mutate(v, rnd, depth + 1) : v));
    if (rnd() < 0.1) out.push(mutate(value[0], rnd, depth + 1));
    if (rnd() < 0.1) out.length = 0;
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const roll = rnd();
      if (roll < 0.1) continue; // drop a field
      out[k] = roll < 0.45 ? mutate(v, rnd, depth + 1) : v;
    }
    if (rnd() < 0.1) out[`extra_${Math.floor(rnd() * 100)}`] = ODD_VALUES[Math.floor(rnd() * ODD_VALUES.length)];
    return out;
  }
  return r < 0.3 ? ODD_VALUES[Math.floor(rnd() * ODD_VALUES.length)] : value;
}

function bodyFor(base: unknown, rnd: () => number): string {
  const r = rnd();
  if (base === undefined && r < 0.7) return '';
  const json = JSON.stringify(base === undefined ? {} : mutate(base, rnd));
  if (r < 0.06) return json.slice(0, Math.floor(rnd() * json.length)); // truncated
  if (r < 0.09) return `{"model":"gpt-4o","messages":${'['.repeat(3000)}${']'.repeat(3000)}}`; // deep
  if (r < 0.11) return Buffer.from(Array.from({ length: 64 }, () => Math.floor(rnd() * 256))).toString('latin1'); // bytes
  if (r < 0.13) return 'null';
  return json;
}

interface Answer {
  status: number;
  error?: string;
}

function send(agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve) => {
    let req;
    // Framed with a length for every method (node sends a GET's body unframed: the server would read it as the next request).
    const framed = body === '' ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body, 'latin1')) };
    try {
      req = httpRequest({ host: '127.0.0.1', port, method, path, headers: framed, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', (e) => resolve({ status: res.statusCode ?? 0, error: e.message }));
      });
    } catch (e) {
      // node refused to send it (an invalid header value): nothing reached the server.
      resolve({ status: -1, error: (e as Error).message });
      return;
    }
    req.on('error', (e) => resolve({ status: 0, error: e.message }));
    req.end(body === '' ? undefined : Buffer.from(body, 'latin1'));
  });
}

describe('fuzzing the real port', () => {
  let server: MockLLMServer;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  beforeAll(async () => {
    server = await startMockLLMServer({
      scenarios: [{ name: 'any', steps: [{ respond: { text: 'ok' }, consume: false }] }],
      bodyLimit: 256 * 1024,
      maxSessions: 50,
    });
  });
  afterAll(async () => {
    agent.destroy();
    await server.close();
  });

  it(`answers ${REQUESTS} mutated requests (seed ${SEED}) without a 5xx, then a healthy one`, async () => {
    const rnd = prng(SEED);
    const plan = Array.from({ length: REQUESTS }, () => {
      const base = ENDPOINTS[Math.floor(rnd() * ENDPOINTS.length)];
      const junkPath = rnd() < 0.08;
      const path = junkPath ? JUNK_PATHS[Math.floor(rnd() * JUNK_PATHS.length)] : rnd() < 0.15 ? `/s/default${base.path}` : base.path;
      const method = rnd() < 0.05 ? ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'POST'][Math.floor(rnd() * 6)] : base.method;
      const type = rnd() < 0.85 ? 'application/json' : CONTENT_TYPES[Math.floor(rnd() * CONTENT_TYPES.length)];
      const headers: Record<string, string> = { authorization: 'Bearer sk-fuzz', 'x-api-key': 'sk-ant-fuzz', 'x-goog-api-key': 'fuzz' };
      if (type) headers['content-type'] = type;
      if (rnd() < 0.05) delete headers.authorization;
      if (rnd() < 0.03) headers.origin = rnd() < 0.5 ? 'https://evil.example' : 'null';
      return { method, path, headers, body: bodyFor(method === 'GET' || method === 'HEAD' ? undefined : base.body, rnd) };
    });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < plan.length) {
        const i = next++;
        const { method, path, headers, body } = plan[i];
        const answer = await send(agent, server.port, method, path, headers, body);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status >= 500 || answer.status === 0) failures.push(`#${i} ${method} ${path} → ${answer.status} ${answer.error ?? ''} headers=${JSON.stringify(headers)} body=${body.slice(0, 120)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures).toEqual([]);
    // The fuzz reached the handlers (not only refusals): successes and client errors both occurred.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS / 10);
    expect([...statuses.keys()].some((s) => s >= 400 && s < 500)).toBe(true);

    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    await fetch(`${server.url}/__ghostwire/sessions/default/reset`, { method: 'POST' });
    expect((await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('ok');
    // Every session's journal still serialises.
    const { sessions } = (await (await fetch(`${server.url}/__ghostwire/sessions`)).json()) as { sessions: { id: string }[] };
    for (const { id } of sessions) expect((await fetch(`${server.url}/__ghostwire/sessions/${id}/requests`)).status).toBe(200);
  });
});
