/**
 * What Vertex AI's publishers (Google's Gemini, Anthropic's Claude) share: the hosts, the
 * credentials (an OAuth access token as `Authorization: Bearer`, or an express-mode API key as
 * `x-goog-api-key` / `?key=`), and the front end's own 401.
 */
import type { IncomingRequest } from '../adapter.ts';
import type { CanonicalError } from '../../scenario/canonical.ts';

/** Regional endpoints, the global one (also express mode's) and the multi-region `rep` ones. */
export const VERTEX_HOSTS: readonly string[] = ['{location}-aiplatform.googleapis.com', 'aiplatform.googleapis.com', 'aiplatform.*.rep.googleapis.com'];

/** Where Vertex clients put credentials. */
export const VERTEX_CREDENTIALS = { headers: ['authorization', 'x-goog-api-key'], query: ['key'] } as const;

/** The front end's wording for a request without credentials. */
const UNAUTHENTICATED =
  'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

/**
 * The presence check of Vertex's front end: a bearer token, or an express-mode key.
 * @example
 *   vertexAuthError(req) // null with `Authorization: Bearer ya29.…`
 */
export function vertexAuthError(req: IncomingRequest): CanonicalError | null {
  if (/^\s*Bearer\s+\S/i.test(req.headers.get('authorization') ?? '')) return null;
  if (req.headers.get('x-goog-api-key')?.trim() || req.url.searchParams.get('key')?.trim()) return null;
  return { status: 401, message: UNAUTHENTICATED, headers: {} };
}

/** A publisher model path: `/{version}/[projects/{p}/locations/{l}/]publishers/{publisher}/models/{model}:{method}`. */
const PUBLISHER_PATH = /^\/(v1|v1beta1)\/(?:projects\/([^/]+)\/locations\/([^/]+)\/)?publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)$/;

export interface VertexRoute {
  version: string;
  project: string | null;
  location: string | null;
  publisher: string;
  /** The model segment as sent (still percent-escaped). */
  model: string;
  method: string;
}

/**
 * Splits a Vertex publisher-model path, or null when it is not one.
 * @example
 *   vertexRoute('/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4:rawPredict')?.method // 'rawPredict'
 */
export function vertexRoute(path: string): VertexRoute | null {
  const m = PUBLISHER_PATH.exec(path);
  if (!m) return null;
  return { version: m[1], project: m[2] ?? null, location: m[3] ?? null, publisher: m[4], model: m[5], method: m[6] };
}
