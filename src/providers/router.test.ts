import { describe, expect, it } from 'vitest';
import type { ProviderAdapter, RouteRequest } from './adapter.ts';
import { framingOfContentType, splitFrames } from './common/framing.ts';
import { hostPattern } from './common/host-pattern.ts';
import { defaultAdapters, PROVIDER_IDS, providerOrigins } from './registry.ts';
import { ProviderRouter } from './router.ts';

const req = (url: string, method = 'POST', headers: Record<string, string> = {}): RouteRequest => {
  const u = new URL(url);
  return { method, url: u, path: u.pathname, headers: new Headers(headers) };
};

describe('host patterns', () => {
  it('matches plain hosts, one-label wildcards and named parts, ignoring case and port', () => {
    expect(hostPattern('api.openai.com').match('API.openai.com:443')).toEqual({});
    expect(hostPattern('*.openai.azure.com').match('my-res.openai.azure.com')).toEqual({});
    expect(hostPattern('*.openai.azure.com').match('a.b.openai.azure.com')).toBeNull();
    expect(hostPattern('bedrock-runtime.*.amazonaws.com').match('bedrock-runtime.eu-west-1.amazonaws.com')).toEqual({});
    expect(hostPattern('{location}-aiplatform.googleapis.com').match('europe-west4-aiplatform.googleapis.com')).toEqual({ location: 'europe-west4' });
    expect(hostPattern('{location}-aiplatform.googleapis.com').match('aiplatform.googleapis.com')).toBeNull();
    expect(hostPattern('api.openai.com').match('api.openai.com.evil.test')).toBeNull();
    // A pattern with a port (a local server) matches that port only: the real port's host is not Ollama's.
    expect(hostPattern('127.0.0.1:11434').match('127.0.0.1:11434')).toEqual({});
    expect(hostPattern('127.0.0.1:11434').match('127.0.0.1:40111')).toBeNull();
  });
});

describe('ProviderRouter', () => {
  const router = new ProviderRouter(defaultAdapters());
  const served = (r: RouteRequest) => {
    const result = router.route(r);
    return result.served ? result.adapter.id : `unserved:${result.adapter?.id ?? null}`;
  };

  it('answers a route seen just before exactly as a fresh router does, whatever came in between', () => {
    const requests = [
      req('http://127.0.0.1:1/v1/chat/completions'),
      req('http://127.0.0.1:1/v1/chat/completions', 'POST', { 'user-agent': 'mistral-client-typescript/1.0' }),
      req('http://127.0.0.1:1/mistral/v1/chat/completions'),
      req('http://127.0.0.1:1/mistral/v1/chat/completions'),
      req('http://127.0.0.1:1/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21'),
      req('http://127.0.0.1:1/ollama/nothing'),
      req('http://127.0.0.1:1/v1/chat/completions', 'GET'),
      req('https://api.openai.com/v1/chat/completions'),
      req('http://127.0.0.1:1/v1/chat/completions'),
      req(`http://127.0.0.1:1/v1/models/${'m'.repeat(250)}:generateContent`),
      req(`http://127.0.0.1:1/v1/models/${'m'.repeat(250)}:generateContent`),
      req('http://127.0.0.1:1/v1/messages'),
    ];
    const shared = new ProviderRouter(defaultAdapters());
    for (const r of [...requests, ...requests.toReversed(), ...requests]) {
      const fresh = new ProviderRouter(defaultAdapters()).route(r);
      const got = shared.route(r);
      expect([got.adapter?.id ?? null, got.served, 'path' in got ? got.path : undefined], `${r.method} ${r.url.href}`).toEqual([
        fresh.adapter?.id ?? null,
        fresh.served,
        'path' in fresh ? fresh.path : undefined,
      ]);
    }
  });

  it('routes by path on a shared host, and every path of an API host to that API', () => {
    expect(served(req('http://127.0.0.1:1/v1/chat/completions'))).toBe('openai');
    expect(served(req('http://127.0.0.1:1/v1/messages'))).toBe('anthropic');
    expect(served(req('http://127.0.0.1:1/v1/models/g:generateContent'))).toBe('gemini');
    // An API's host keeps its unknown paths (their 404 is in its shape) and never serves another API's path.
    expect(served(req('https://api.anthropic.com/v1/chat/completions'))).toBe('unserved:anthropic');
    expect(served(req('https://generativelanguage.googleapis.com/v1/nothing'))).toBe('unserved:gemini');
    expect(served(req('https://api.openai.com/v1/messages'))).toBe('unserved:openai');
  });

  it("gives an unknown path on a shared host the shape of the API the client's headers name", () => {
    expect(served(req('http://127.0.0.1:1/v9/x', 'POST', { 'anthropic-version': '2023-06-01' }))).toBe('unserved:anthropic');
    expect(served(req('http://127.0.0.1:1/v9/x', 'POST', { 'x-goog-api-key': 'k' }))).toBe('unserved:gemini');
    expect(served(req('http://127.0.0.1:1/v9/x'))).toBe('unserved:openai');
  });

  it('breaks a tie between two adapters on one path by the client fingerprint, then registry order', () => {
    const twin = (id: 'openai' | 'anthropic', fingerprint?: string): ProviderAdapter => ({
      ...defaultAdapters()[0],
      id,
      hosts: [],
      routes: (r) => r.path === '/v1/shared',
      ...(fingerprint ? { recognizes: (r: RouteRequest) => (r.headers.get('user-agent') ?? '').startsWith(fingerprint) } : {}),
    });
    const shared = new ProviderRouter([twin('openai'), twin('anthropic', 'TwinSDK/')]);
    const id = (r: RouteRequest) => shared.route(r).adapter?.id;
    expect(id(req('http://127.0.0.1:1/v1/shared'))).toBe('openai');
    expect(id(req('http://127.0.0.1:1/v1/shared', 'POST', { 'user-agent': 'TwinSDK/1.0' }))).toBe('anthropic');
  });

  it('derives ids and default origins from the registry', () => {
    expect(PROVIDER_IDS).toEqual(['openai', 'openai-responses', 'anthropic', 'gemini', 'embeddings', 'mistral', 'ollama', 'azure-openai', 'vertex-gemini', 'vertex-anthropic', 'cohere', 'bedrock', 'openai-realtime', 'gemini-live']);
    expect(providerOrigins()).toEqual([
      'https://api.openai.com',
      'https://api.anthropic.com',
      'https://generativelanguage.googleapis.com',
      'https://api.mistral.ai',
      'http://localhost:11434',
      'http://127.0.0.1:11434',
      'https://aiplatform.googleapis.com',
      'https://api.cohere.com',
      'https://api.cohere.ai',
    ]);
  });
});

describe('stream framing', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const dec = (b: Uint8Array) => new TextDecoder().decode(b);

  it('cuts SSE at blank lines (LF or CRLF) and keeps the incomplete rest', () => {
    const { frames, rest } = splitFrames('sse', enc('data: 1\n\nevent: x\r\ndata: 2\r\n\r\ndata: 3'));
    expect(frames.map(dec)).toEqual(['data: 1\n\n', 'event: x\r\ndata: 2\r\n\r\n']);
    expect(dec(rest)).toBe('data: 3');
  });

  it('cuts NDJSON at newlines', () => {
    const { frames, rest } = splitFrames('ndjson', enc('{"a":1}\n{"b":2}\n{"c"'));
    expect(frames.map(dec)).toEqual(['{"a":1}\n', '{"b":2}\n']);
    expect(dec(rest)).toBe('{"c"');
  });

  it('cuts binary event-stream messages by their length prelude, byte-exact', () => {
    const message = (n: number) => {
      const bytes = new Uint8Array(n).fill(7);
      new DataView(bytes.buffer).setUint32(0, n);
      return bytes;
    };
    const all = new Uint8Array([...message(20), ...message(32), ...message(40).subarray(0, 10)]);
    const { frames, rest } = splitFrames('binary', all);
    expect(frames.map((f) => f.length)).toEqual([20, 32]);
    expect(rest.length).toBe(10);
  });

  it('reads the framing from a content type', () => {
    expect(framingOfContentType('text/event-stream; charset=utf-8')).toBe('sse');
    expect(framingOfContentType('application/x-ndjson')).toBe('ndjson');
    expect(framingOfContentType('application/vnd.amazon.eventstream')).toBe('binary');
    expect(framingOfContentType('application/json; charset=UTF-8')).toBeNull();
  });
});

describe('explicit provider prefixes on a shared host', () => {
  const router = new ProviderRouter(defaultAdapters());
  it('routes /{provider}/… to that provider on the path after the prefix', () => {
    const mistral = router.route(req('http://127.0.0.1:1/mistral/v1/chat/completions'));
    expect(mistral).toMatchObject({ served: true, path: '/v1/chat/completions' });
    expect(mistral.adapter?.id).toBe('mistral');
    expect(router.route(req('http://127.0.0.1:1/ollama/api/chat')).adapter?.id).toBe('ollama');
    expect(router.route(req('http://127.0.0.1:1/openai/v1/chat/completions')).adapter?.id).toBe('openai');
    const unknown = router.route(req('http://127.0.0.1:1/mistral/v9/nothing'));
    expect(unknown).toMatchObject({ served: false });
    expect(unknown.adapter?.id).toBe('mistral');
    // Not on an API's own host: there the host decides.
    expect(router.route(req('https://api.openai.com/mistral/v1/chat/completions')).served).toBe(false);
  });
});
