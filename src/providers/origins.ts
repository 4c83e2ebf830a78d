/**
 * Where the official SDKs send requests by default: the hosts a mock or a golden replay must
 * intercept when the user gives no base URL.
 */

/** The default API origins of openai, @anthropic-ai/sdk and @google/genai. */
export const PROVIDER_ORIGINS: readonly string[] = [
  'https://api.openai.com',
  'https://api.anthropic.com',
  'https://generativelanguage.googleapis.com',
];
