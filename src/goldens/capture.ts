import type { Redactor } from './redact.ts';
import type { RecordedRequest } from './schema.ts';

/** Transport-level headers that say nothing about the conversation and change between runs. */
const DROPPED_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding', 'keep-alive']);

/** Response headers that no longer describe a body once it was decoded and re-served. */
const HOP_RESPONSE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/** Parses JSON text; returns the text itself when it is not JSON, null when empty. */
export function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A request as a golden keeps it: redacted URL and headers, parsed body.
 * @example const rec = await captureRequest(request, new Redactor())
 */
export async function captureRequest(request: Request, redactor: Redactor): Promise<RecordedRequest> {
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
  const headers = redactor.headers(request.headers);
  for (const name of Object.keys(headers)) if (DROPPED_HEADERS.has(name)) delete headers[name];
  return { method: request.method.toUpperCase(), url: redactor.url(request.url), headers, body: redactor.deep(parseBody(text)) };
}

/** Response headers as recorded: lower-cased, redacted, without hop-by-hop headers. */
export function captureResponseHeaders(headers: Headers, redactor: Redactor): Record<string, string> {
  const out = redactor.headers(headers);
  for (const name of Object.keys(out)) if (HOP_RESPONSE_HEADERS.has(name)) delete out[name];
  return out;
}
