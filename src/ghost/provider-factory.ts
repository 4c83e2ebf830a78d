// Picks the provider implementation by name.
import type { LLMProvider, ProviderOptions } from './provider.ts';
import { AnthropicProvider } from './provider-anthropic.ts';
import { AzureOpenAIProvider, type AzureOpenAIProviderOptions } from './provider-azure-openai.ts';
import { BedrockProvider, type BedrockProviderOptions } from './provider-bedrock.ts';
import { GeminiProvider } from './provider-gemini.ts';
import { OpenAIProvider } from './provider-openai.ts';

/** Options for any provider: the shared ones plus Azure's and Bedrock's own (ignored by the others). */
export type AnyProviderOptions = ProviderOptions &
  Pick<AzureOpenAIProviderOptions, 'endpoint' | 'apiVersion' | 'deployment'> &
  Pick<BedrockProviderOptions, 'region' | 'credentials' | 'requestHandler'>;

/**
 * Creates the LLM provider for `options.provider` (openai | anthropic | gemini | azure-openai | bedrock).
 * @example
 * const llm = createProvider({ provider: 'anthropic', apiKey: 'sk-ant-test', baseURL: mock.url });
 * const answer = await llm.createCompletion([{ role: 'user', content: 'Rank these tools' }], []);
 */
export function createProvider(options: AnyProviderOptions): LLMProvider {
  switch (options.provider) {
    case 'openai':
      return new OpenAIProvider(options);
    case 'anthropic':
      return new AnthropicProvider(options);
    case 'gemini':
      return new GeminiProvider(options);
    case 'azure-openai':
      return new AzureOpenAIProvider(options);
    case 'bedrock':
      return new BedrockProvider(options);
    default:
      throw new Error(`unknown provider ${JSON.stringify(options.provider)}: expected "openai", "anthropic", "gemini", "azure-openai" or "bedrock"`);
  }
}
