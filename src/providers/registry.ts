/**
 * The one list of providers: every built-in adapter, one line each, in routing order. Provider ids
 * (the scenario format's `match.provider`), the hosts MSW and goldens intercept, and the readers
 * goldens use all derive from it.
 */
import type { ProviderAdapter } from './adapter.ts';
import { anthropicAdapter } from './anthropic/index.ts';
import { hostPattern, isConcreteHost } from './common/host-pattern.ts';
import { geminiEmbeddingsAdapter } from './gemini-embeddings/index.ts';
import { geminiAdapter } from './gemini/index.ts';
import { openAIChatAdapter } from './openai-chat/index.ts';
import { openAIEmbeddingsAdapter } from './openai-embeddings/index.ts';
import { openAIResponsesAdapter } from './openai-responses/index.ts';
import { mistralAdapter } from './mistral/index.ts';
import { ollamaAdapter } from './ollama/index.ts';
import { azureOpenAIAdapter } from './azure-openai/index.ts';
import { vertexGeminiAdapter } from './vertex-gemini/index.ts';
import { vertexAnthropicAdapter } from './vertex-anthropic/index.ts';
import { vertexEmbeddingsAdapter } from './vertex-embeddings/index.ts';
import { cohereAdapter } from './cohere/index.ts';
import { bedrockAdapter } from './bedrock/index.ts';
import { bedrockMantleAdapter } from './bedrock-mantle/index.ts';

/** Adding a provider: its folder, and one line here. */
const REGISTERED = [
  { id: 'openai', create: openAIChatAdapter },
  { id: 'openai-responses', create: openAIResponsesAdapter },
  { id: 'anthropic', create: anthropicAdapter },
  { id: 'gemini', create: geminiAdapter },
  { id: 'embeddings', create: openAIEmbeddingsAdapter },
  { id: 'embeddings', create: geminiEmbeddingsAdapter },
  { id: 'mistral', create: mistralAdapter },
  { id: 'ollama', create: ollamaAdapter },
  { id: 'azure-openai', create: azureOpenAIAdapter },
  { id: 'vertex-gemini', create: vertexGeminiAdapter },
  { id: 'vertex-anthropic', create: vertexAnthropicAdapter },
  { id: 'embeddings', create: vertexEmbeddingsAdapter },
  { id: 'cohere', create: cohereAdapter },
  { id: 'bedrock', create: bedrockAdapter },
  { id: 'bedrock', create: bedrockMantleAdapter },
] as const;

/** The realtime (WebSocket) APIs: their sessions live in src/providers/realtime-registry.ts. */
const REALTIME_IDS = ['openai-realtime', 'gemini-live'] as const;

/** Which wire API a request came in on (`embeddings` covers OpenAI embeddings and Gemini embedContent). */
export type ProviderId = (typeof REGISTERED)[number]['id'] | (typeof REALTIME_IDS)[number];

/** Every provider id, in registry order, once each (the realtime APIs last). */
export const PROVIDER_IDS: readonly ProviderId[] = [...new Set<ProviderId>([...REGISTERED.map((r) => r.id), ...REALTIME_IDS])];

/**
 * A fresh list of every built-in adapter. Adapters keep no per-mock state (each mock makes its own
 * with `createState`), so one list may serve many mocks, as a server's sessions share one; fresh
 * lists keep their caches (the Chat adapter's encoded frames) to their owner.
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
  // Local servers (Ollama's 127.0.0.1:11434) speak plain HTTP; every hosted API HTTPS.
  return [...new Set(hosts.map((h) => `${/^(localhost|127\.0\.0\.1)(:\d+)?$/.test(h) ? 'http' : 'https'}://${h}`))];
}

/**
 * The hosts given as patterns, as declared (`*.openai.azure.com`): for layers that match them without
 * loading the adapters (the Vitest setup file compiles them with common/host-pattern.ts).
 * @example
 *   providerHostPatterns() // ['*.openai.azure.com', '{location}-aiplatform.googleapis.com', ...]
 */
export function providerHostPatterns(adapters: readonly ProviderAdapter[] = defaultAdapters()): string[] {
  return [...new Set(adapters.flatMap((a) => a.hosts).filter((h) => !isConcreteHost(h)))];
}

/**
 * A test for the hosts given as patterns (`*.openai.azure.com`, `{location}-aiplatform.googleapis.com`),
 * which `providerOrigins` cannot list: MSW and goldens intercept a request whose host passes it.
 * @example
 *   providerHostMatcher()('contoso.openai.azure.com') // true
 */
export function providerHostMatcher(adapters: readonly ProviderAdapter[] = defaultAdapters()): (host: string) => boolean {
  const patterns = providerHostPatterns(adapters).map(hostPattern);
  return (host) => patterns.some((p) => p.match(host) !== null);
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
