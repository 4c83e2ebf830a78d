// Azure OpenAI behind the LLMProvider interface: the OpenAI chat provider over the `AzureOpenAI` client.
import type { AzureOpenAI as AzureOpenAIClient } from 'openai';
import { optionalPeer } from '../lazy/index.ts';
import type { ProviderOptions } from './provider.ts';
import { OpenAIProvider } from './provider-openai.ts';
const AzureOpenAI = optionalPeer<typeof AzureOpenAIClient>('openai', 'AzureOpenAI');

export interface AzureOpenAIProviderOptions extends Omit<ProviderOptions, 'provider'> {
  /** The resource's endpoint, `https://{resource}.openai.azure.com` (or a mock server's URL); else `baseURL`, else AZURE_OPENAI_ENDPOINT. */
  endpoint?: string;
  /** Else OPENAI_API_VERSION, as the `AzureOpenAI` client reads it. */
  apiVersion?: string;
  /** The deployment to call; also the default model. */
  deployment?: string;
  /** Entra ID instead of a key: a function returning a bearer token. */
  azureADTokenProvider?: () => Promise<string>;
}

/**
 * The Azure OpenAI provider: Chat Completions on a deployment, tools named as OpenAI names them.
 * The ghost builds it for `provider: 'azure-openai'`; the key falls back to AZURE_OPENAI_API_KEY.
 * @example
 * const llm = new AzureOpenAIProvider({ endpoint: 'https://contoso.openai.azure.com', apiKey: 'key', apiVersion: '2024-10-21', deployment: 'gpt-4o' });
 * const result = await mcpGhost({ provider: 'azure-openai', serverConfig, userPrompt: 'How many orders?' }, { llm });
 */
export class AzureOpenAIProvider extends OpenAIProvider {
  constructor({ endpoint, apiVersion, deployment, azureADTokenProvider, ...options }: AzureOpenAIProviderOptions) {
    super({ ...options, provider: 'azure-openai', defaultModel: options.defaultModel ?? deployment }, ({ baseURL, apiKey, ...client }) =>
      new AzureOpenAI({
        ...client,
        // The client reads AZURE_OPENAI_ENDPOINT itself when neither is given.
        ...(endpoint ?? baseURL ? { endpoint: endpoint ?? baseURL } : {}),
        ...(apiVersion ? { apiVersion } : {}),
        deployment,
        ...(azureADTokenProvider ? { azureADTokenProvider } : apiKey ? { apiKey } : {}),
      }),
    );
  }
}
