// Where a port request goes when recorded (the provider's default host, an --upstream), and which golden
// names the real port accepts. The end-to-end behaviour is src/cli/serve-goldens.port.test.ts.
import { describe, expect, it } from 'vitest';
import { PortGoldens, upstreamTarget } from './port-goldens.ts';
import { ProviderUpstreams } from '../providers/index.ts';

const routes = new ProviderUpstreams();
const post = (pathAndQuery: string, headers: Record<string, string> = {}) => ({ method: 'POST', pathAndQuery, headers: new Headers(headers) });

describe('upstreamTarget', () => {
  it("goes to the provider's default host with the API path, whatever prefix carried it", () => {
    expect(upstreamTarget(routes, post('/v1/chat/completions'), {}, true)).toBe('https://api.openai.com/v1/chat/completions');
    expect(upstreamTarget(routes, post('/v1/messages', { 'anthropic-version': '2023-06-01' }), {}, true)).toBe('https://api.anthropic.com/v1/messages');
    expect(upstreamTarget(routes, post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'), {}, true)).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    // A `/mistral` prefix names the provider on a shared host; the provider's own path has none.
    expect(upstreamTarget(routes, post('/mistral/v1/chat/completions'), {}, true)).toBe('https://api.mistral.ai/v1/chat/completions');
  });

  it('prefers PROVIDER=URL, then URL (with the path as sent)', () => {
    const given = { upstream: 'http://127.0.0.1:9000/gw', upstreams: { anthropic: 'http://127.0.0.1:9001/' } };
    expect(upstreamTarget(routes, post('/v1/messages', { 'anthropic-version': '2023-06-01' }), given, true)).toBe('http://127.0.0.1:9001/v1/messages');
    expect(upstreamTarget(routes, post('/mistral/v1/chat/completions'), given, true)).toBe('http://127.0.0.1:9000/gw/mistral/v1/chat/completions');
  });

  it('refuses to guess a host that depends on the account (Azure) and a path no API serves, naming the flag', () => {
    expect(() => upstreamTarget(routes, post('/openai/deployments/gpt4/chat/completions?api-version=2024-10-21'), {}, true)).toThrow(/azure-openai API has no single default host.*--upstream azure-openai=URL/);
    expect(() => upstreamTarget(routes, post('/nothing/here'), {}, true)).toThrow(/no provider API ghostwire knows serves POST \/nothing\/here; give the upstream with --upstream URL/);
    // Replay never goes anywhere: any URL with the path will do.
    expect(upstreamTarget(routes, post('/nothing/here'), {}, false)).toBe('http://ghostwire.invalid/nothing/here');
  });
});

describe('golden names', () => {
  it('accepts path segments and refuses anything that could leave the goldens folder', () => {
    for (const ok of ['checkout', 'checkout/pays-with-card', 'a.b_c-d/e', 'v1.2']) expect(PortGoldens.validName(ok), ok).toBe(true);
    for (const bad of ['', '/abs', '../up', 'a/../b', 'a/..', '.', './a', 'a//b', 'a/', 'a\\b', 'sp ace', 'x'.repeat(201)]) expect(PortGoldens.validName(bad), bad).toBe(false);
  });

  it('maps a name to DIR/<name>.json', () => {
    const goldens = new PortGoldens({ dir: '/tmp/e2e-goldens', env: {} });
    expect(goldens.fileOf('checkout/pays')).toBe('/tmp/e2e-goldens/checkout/pays.json');
  });
});
