/**
 * Test-only: Google credentials that never reach the network. An `OAuth2Client` holding an access
 * token with no expiry answers `getRequestHeaders()` from memory (`Authorization: Bearer …`), so
 * google-auth-library neither looks for Application Default Credentials nor calls a token endpoint.
 * Both Vertex SDKs take it: `@google/genai` as `googleAuthOptions: { authClient }`,
 * `@anthropic-ai/vertex-sdk` as `authClient` (its `accessToken` option is stored but not sent).
 */
import { OAuth2Client } from 'google-auth-library';

/**
 * An auth client that answers with a fixed bearer token.
 * @example
 *   new AnthropicVertex({ region: 'us-east5', projectId: 'p', authClient: staticTokenClient() });
 */
export function staticTokenClient(token = 'ya29.ghostwire-test'): OAuth2Client {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: token });
  return client;
}
