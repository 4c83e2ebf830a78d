/**
 * Azure OpenAI's paths, as the `AzureOpenAI` client of `openai` and the plain `OpenAI` client
 * pointed at a v1 endpoint send them: `/openai/deployments/{deployment}/chat/completions`,
 * `/openai/deployments/{deployment}/embeddings`, `/openai/responses` (all with `?api-version=`),
 * and the v1 form `/openai/v1/{chat/completions,embeddings,responses,models}`. Each maps onto the
 * OpenAI path its adapter serves, so the OpenAI adapters parse and render it.
 */
import type { IncomingRequest, RouteRequest } from '../adapter.ts';
import { requestWith } from '../adapter.ts';
import { hostPattern } from '../common/host-pattern.ts';
import { decodeSegment } from '../common/models.ts';

/** The hosts Azure OpenAI resources answer on (one label: the resource name). */
export const AZURE_OPENAI_HOSTS: readonly string[] = ['*.openai.azure.com', '*.cognitiveservices.azure.com'];
const AZURE_HOST_MATCHERS = AZURE_OPENAI_HOSTS.map(hostPattern);

/** Which OpenAI wire API an Azure path speaks. */
export type AzureApi = 'chat' | 'embeddings' | 'responses' | 'models';

export interface AzureRoute {
  api: AzureApi;
  /** The deployment named in the path (`/deployments/{d}/…`), when there is one. */
  deployment: string | null;
  /** The same request's path as the OpenAI adapters serve it (`/v1/chat/completions`). */
  openAIPath: string;
}

const AZURE_PATH = /^\/openai(?:\/v1)?(?:\/deployments\/([^/]+))?\/(chat\/completions|embeddings|responses(?:\/[^/]+)?|models(?:\/[^/]+)?)\/?$/;

const API: Record<string, AzureApi> = { 'chat/completions': 'chat', embeddings: 'embeddings', responses: 'responses', models: 'models' };

/**
 * Splits an Azure OpenAI path, or null when it is not one.
 * @example
 *   azureRoute('/openai/deployments/gpt-4o/chat/completions') // { api: 'chat', deployment: 'gpt-4o', openAIPath: '/v1/chat/completions' }
 */
export function azureRoute(path: string): AzureRoute | null {
  const m = AZURE_PATH.exec(path);
  if (!m) return null;
  const api = API[m[2].split('/')[0] === 'chat' ? 'chat/completions' : m[2].split('/')[0]];
  // Deployments carry chat and embeddings only; responses and models sit beside them.
  if (m[1] !== undefined && api !== 'chat' && api !== 'embeddings') return null;
  const deployment = m[1] === undefined ? null : (decodeSegment(m[1]) ?? m[1]);
  return { api, deployment, openAIPath: `/v1/${m[2]}` };
}

/**
 * Does the request say it is Azure's? Paths without a deployment (`/openai/v1/chat/completions`,
 * `/openai/responses`) are also a gateway's OpenAI layout, so off Azure's hosts they are Azure's only
 * when the client sends what Azure clients send: the `api-version` query or the `api-key` header.
 * @example
 *   saysAzure({ method: 'POST', path: '/openai/v1/chat/completions', url: new URL('http://127.0.0.1:4010/openai/v1/chat/completions'), headers: new Headers({ 'api-key': 'k' }) }) // true
 */
export function saysAzure(req: RouteRequest): boolean {
  if (req.url.searchParams.has('api-version') || req.headers.has('api-key')) return true;
  return AZURE_HOST_MATCHERS.some((h) => h.match(req.url.host) !== null);
}

/**
 * Is this request on an Azure OpenAI route (by method and path only: where a gateway's `/openai/...` path looks
 * the same, the router asks `saysAzure` through the adapter's `recognizes`)?
 * @example
 *   isAzureRoute({ method: 'POST', path: '/openai/deployments/gpt-4o/chat/completions', url, headers }) // true
 */
export function isAzureRoute(req: RouteRequest): boolean {
  const route = azureRoute(req.path);
  if (!route) return false;
  if (route.api === 'models') return req.method === 'GET';
  if (route.api === 'responses' && route.openAIPath !== '/v1/responses') return req.method === 'GET' || req.method === 'DELETE';
  return req.method === 'POST';
}

/**
 * The request as the OpenAI adapter for its API sees it: the OpenAI path, and, when the body names
 * no model, the deployment as its `model` (Azure answers for the deployment the path names).
 * @example
 *   asOpenAIRequest(req, route).path // '/v1/chat/completions'
 */
export function asOpenAIRequest(req: IncomingRequest, route: AzureRoute): IncomingRequest {
  return requestWith(req, { path: route.openAIPath, bodyText: withDeploymentModel(req.bodyText, route.deployment) });
}

function withDeploymentModel(bodyText: string, deployment: string | null): string {
  if (deployment === null) return bodyText;
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    // Not JSON: the OpenAI parser answers it with its own 400.
    return bodyText;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return bodyText;
  const model = (body as { model?: unknown }).model;
  if (model !== undefined && model !== null && model !== '') return bodyText;
  try {
    return JSON.stringify({ ...body, model: deployment });
  } catch {
    // Nested too deep to write back: the OpenAI parser answers it as it is.
    return bodyText;
  }
}
