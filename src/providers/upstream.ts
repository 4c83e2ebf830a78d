/**
 * Where a request reaching the real port would go at the real provider: the API its path names
 * (and, on a shared path, the client's headers), that API's default host, and the API path there.
 * Recording through the port (`ghostwire serve --record`) forwards with this; it is the one place
 * outside the adapters that turns a path into a provider's host.
 */
import type { ProviderAdapter } from './adapter.ts';
import { isConcreteHost } from './common/host-pattern.ts';
import { defaultAdapters } from './registry.ts';
import { ProviderRouter } from './router.ts';

export interface ProviderUpstream {
  /** The provider id whose API the path names (`openai`, `anthropic`, …), null when none serves it. */
  provider: string | null;
  /** The path as that API knows it (a `/mistral` prefix or a gateway's leading segments removed), query kept. */
  apiPath: string;
  /** The API's default origin (`https://api.openai.com`), null when its host depends on the account (Azure, Vertex, Bedrock). */
  origin: string | null;
}

/**
 * Environment variables the official SDKs read their base URL from (openai and anthropic in JS and Python,
 * @google/genai), and what to append to the server's URL. SDKs without such a variable take a baseURL option.
 */
const BASE_URL_ENV: ReadonlyArray<{ name: string; suffix: string }> = [
  { name: 'OPENAI_BASE_URL', suffix: '/v1' },
  { name: 'ANTHROPIC_BASE_URL', suffix: '' },
  { name: 'GOOGLE_GEMINI_BASE_URL', suffix: '' },
];

/**
 * The base-URL variables the official SDKs (and the Python openai/anthropic clients) read, pointing at `url`.
 * @example baseUrlEnv('http://127.0.0.1:4010/s/abc') // { OPENAI_BASE_URL: 'http://127.0.0.1:4010/s/abc/v1', ANTHROPIC_BASE_URL: ..., ... }
 */
export function baseUrlEnv(url: string): Record<string, string> {
  const base = url.replace(/\/$/, '');
  return Object.fromEntries(BASE_URL_ENV.map(({ name, suffix }) => [name, `${base}${suffix}`]));
}

function defaultOrigin(adapter: ProviderAdapter): string | null {
  const host = adapter.hosts.find(isConcreteHost);
  if (!host) return null;
  return `${/^(localhost|127\.0\.0\.1)(:\d+)?$/.test(host) ? 'http' : 'https'}://${host}`;
}

/**
 * Reads the API a port request is for and where the real one lives.
 * @example new ProviderUpstreams().of('POST', '/v1/messages', headers) // { provider: 'anthropic', apiPath: '/v1/messages', origin: 'https://api.anthropic.com' }
 */
export class ProviderUpstreams {
  readonly #router: ProviderRouter;

  constructor(adapters: readonly ProviderAdapter[] = defaultAdapters()) {
    this.#router = new ProviderRouter(adapters);
  }

  /** `pathAndQuery` as the client sent it after any session prefix. */
  of(method: string, pathAndQuery: string, headers: Headers): ProviderUpstream {
    const url = new URL(pathAndQuery, 'http://ghostwire.invalid');
    const route = this.#router.recordedRoute(method.toUpperCase(), url, headers);
    if (!route) return { provider: null, apiPath: pathAndQuery, origin: null };
    return { provider: route.adapter.id, apiPath: `${route.path}${url.search}`, origin: defaultOrigin(route.adapter) };
  }
}
