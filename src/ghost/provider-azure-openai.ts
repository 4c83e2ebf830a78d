// Azure OpenAI behind the LLMProvider interface: the OpenAI chat provider over the `AzureOpenAI` client.
import { AzureOpenAI } from 'openai';
import type { ProviderOptions } from './provider.ts';
import { OpenAIProvider } from './provider-openai.ts';

export interface AzureOpenAIProviderOptions extends Omit<ProviderOptions, 'provider' | 'baseURL'> {
  /** The resource's endpoint, `https://{resource}.openai.azure.com` (or a mock server's URL). */
  endpoint: string;
  apiVersion: string;
  /** The deployment to call; also the default model. */
  deployment?: string;
  /** Entra ID instead of a key: a function returning a bearer token. */
  azureADTokenProvider?: () => Promise<string>;
}

/**
 * The Azure OpenAI provider: Chat Completions on a deployment, tools named as OpenAI names them.
 * Give it to the ghost as `mcpGhost(options, { llm })`.
 * @example
 * const llm = new AzureOpenAIProvider({ endpoint: 'https://contoso.openai.azure.com', apiKey: 'key', apiVersion: '2024-10-21', deployment: 'gpt-4o' });
 * const result = await mcpGhost({ provider: 'openai', serverConfig, userPrompt: 'How many orders?' }, { llm });
 */
export class AzureOpenAIProvider extends OpenAIProvider {
  constructor({ endpoint, apiVersion, deployment, azureADTokenProvider, ...options }: AzureOpenAIProviderOptions) {
    super({ ...options, provider: 'openai', defaultModel: options.defaultModel ?? deployment }, ({ baseURL: _baseURL, apiKey, ...client }) =>
      new AzureOpenAI({ ...client, endpoint, apiVersion, deployment, ...(azureADTokenProvider ? { azureADTokenProvider } : { apiKey }) }),
    );
  }
}
