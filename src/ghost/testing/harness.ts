// Test harness for the ghost: per-provider match helpers, mock-LLM wiring, fixture server configs.
import { anthropic, gemini, openai, type MatchLike } from '../../scenario/builder.ts';
import { azureOpenAI, bedrock } from '../../scenario/builder-helpers.ts';
import type { ScenarioList } from '../../transports/mock-llm.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import type { ProviderName } from '../tool-names.ts';
import type { GhostOptions } from '../types.ts';

/** The providers every shared ghost test runs against; Azure OpenAI and Bedrock have their own files. */
export const PROVIDERS = ['openai', 'anthropic', 'gemini'] as const;
export type CoreProvider = (typeof PROVIDERS)[number];

const MATCHERS: Record<ProviderName, (extra?: MatchLike) => MatchLike> = { openai, anthropic, gemini, 'azure-openai': azureOpenAI, bedrock };

/** The scenario match for a provider's wire API. */
export function on(provider: ProviderName, extra?: MatchLike): MatchLike {
  return MATCHERS[provider](extra);
}

/** The base URL each SDK wants for the mock server (OpenAI's includes /v1). */
function baseURLFor(provider: ProviderName, url: string): string {
  return provider === 'openai' ? `${url}/v1` : url;
}

/** Options pointing the ghost at a mock server, with fast retries. */
export function ghostOptionsFor(provider: ProviderName, server: { url: string }, rest: Omit<GhostOptions, 'provider'>): GhostOptions {
  return {
    provider,
    apiKey: 'test-key',
    baseURL: baseURLFor(provider, server.url),
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50 },
    ...rest,
  };
}

/**
 * Starts a mock LLM with the given scenarios, runs `fn`, always closes it.
 * @example
 * await withMockLLM([s], async (server) => mcpGhost(ghostOptionsFor('openai', server, {...})));
 */
export async function withMockLLM<T>(scenarios: ScenarioList, fn: (server: MockLLMServer) => Promise<T>): Promise<T> {
  const server = await startMockLLMServer({ scenarios });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}
