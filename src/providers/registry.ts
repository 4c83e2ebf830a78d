/**
 * The one list of providers: every built-in adapter, one line each, in routing order. Provider ids
 * (the scenario format's `match.provider`), the hosts MSW and goldens intercept, and the readers
 * goldens use all derive from it.
 */
import type { ProviderAdapter } from './adapter.ts';
import { anthropicAdapter } from './anthropic/index.ts';
import { isConcreteHost } from './common/host-pattern.ts';
import { geminiEmbeddingsAdapter } from './gemini-embeddings/index.ts';
import { geminiAdapter } from './gemini/index.ts';
import { openAIChatAdapter } from './openai-chat/index.ts';
import { openAIEmbeddingsAdapter } from './openai-embeddings/index.ts';
import { openAIResponsesAdapter } from './openai-responses/index.ts';
import { mistralAdapter } from './mistral/index.ts';
import { cohereAdapter } from './cohere/index.ts';
import { bedrockAdapter } from './bedrock/index.ts';

/** Adding a provider: its folder, and one line here. */
const REGISTERED = [
  { id: 'openai', create: openAIChatAdapter },
  { id: 'openai-responses', create: openAIResponsesAdapter },
  { id: 'anthropic', create: anthropicAdapter },
  { id: 'gemini', create: geminiAdapter },
  { id: 'embeddings', create: openAIEmbeddingsAdapter },
  { id: 'embeddings', create: geminiEmbeddingsAdapter },
  { id: 'mistral', create: mistralAdapter },
  { id: 'cohere', create: cohereAdapter },
  { id: 'bedrock', create: bedrockAdapter },
] as const;

/** Which wire API a request came in on (`embeddings` covers OpenAI embeddings and Gemini embedContent). */
export type ProviderId = (typeof REGISTERED)[number]['id'];

/** Every provider id, in registry order, once each. */
export const PROVIDER_IDS: readonly ProviderId[] = [...new Set(REGISTERED.map((r) => r.id))];

/**
 * A fresh list of every built-in adapter (fresh: adapters keep per-mock state, such as stored responses).
 * @example
 *   const adapters = defaultAdapters();
 */
export function defaultAdapters(): ProviderAdapter[] {
  return REGISTERED.map((r) => r.create());
}

/**
 * The origins the providers' SDKs call by default (`https://api.openai.com`, ...): the hosts a mock
 * or a golden replay intercepts when the user gives no base URL. Host patterns (a resource or region
 * in the name) are left out: they have no single origin.
 * @example
 *   providerOrigins() // ['https://api.openai.com', 'https://api.anthropic.com', ...]
 */
export function providerOrigins(adapters: readonly ProviderAdapter[] = defaultAdapters()): string[] {
  const hosts = adapters.flatMap((a) => a.hosts).filter(isConcreteHost);
  return [...new Set(hosts.map((h) => `https://${h}`))];
}

/**
 * The origins of hosts declared as patterns (a region or resource in the name), as MSW URL
 * wildcards: `bedrock-runtime.*.amazonaws.com` → `https://bedrock-runtime.*.amazonaws.com`
 * (`{name}` parts become `*` too).
 * @example
 *   providerOriginPatterns() // ['https://bedrock-runtime.*.amazonaws.com', ...]
 */
export function providerOriginPatterns(adapters: readonly ProviderAdapter[] = defaultAdapters()): string[] {
  const hosts = adapters.flatMap((a) => a.hosts).filter((h) => !isConcreteHost(h));
  return [...new Set(hosts.map((h) => `https://${h.replace(/\{[a-z][a-z0-9_]*\}/gi, '*')}`))];
}

/**
 * The header and query-parameter names any registered provider carries credentials in.
 * @example
 *   providerCredentials().query // ['key']
 */
export function providerCredentials(adapters: readonly ProviderAdapter[] = defaultAdapters()): { headers: string[]; query: string[] } {
  return {
    headers: [...new Set(adapters.flatMap((a) => a.credentials.headers))],
    query: [...new Set(adapters.flatMap((a) => a.credentials.query))],
  };
}
