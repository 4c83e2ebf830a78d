// Picks the provider implementation by name.
import type { LLMProvider, ProviderOptions } from './provider.ts';
import { AnthropicProvider } from './provider-anthropic.ts';
import { GeminiProvider } from './provider-gemini.ts';
import { OpenAIProvider } from './provider-openai.ts';

/**
 * Creates the LLM provider for `options.provider` (openai | anthropic | gemini).
 * @example
 * const llm = createProvider({ provider: 'anthropic', apiKey: 'sk-ant-test', baseURL: mock.url });
 * const answer = await llm.createCompletion([{ role: 'user', content: 'Rank these tools' }], []);
 */
export function createProvider(options: ProviderOptions): LLMProvider {
  switch (options.provider) {
    case 'openai':
      return new OpenAIProvider(options);
    case 'anthropic':
      return new AnthropicProvider(options);
    case 'gemini':
      return new GeminiProvider(options);
    default:
      throw new Error(`unknown provider ${JSON.stringify(options.provider)}: expected "openai", "anthropic" or "gemini"`);
  }
}
