/**
 * Mistral requests → canonical. The chat wire is OpenAI's shape (snake_case messages, tools,
 * `tool_call_id`), so OpenAI's parser reads it; what differs is Mistral's: its validation errors
 * are FastAPI's 422 with a `detail` list, and its 9-character tool-call ids map back to the
 * engine's. Embeddings (`input`, `encoding_format`) read like OpenAI's too.
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import { parseChatRequest } from '../openai-chat/parse.ts';
import { parseOpenAIEmbeddingsRequest } from '../openai-embeddings/index.ts';
import type { CanonicalRequest } from '../../scenario/canonical.ts';
import type { MistralToolIds } from './tool-ids.ts';

/** A 400 of the shared parser as Mistral answers it: 422, the field's location and message. */
function validation(err: BadRequestError): BadRequestError {
  const loc = ['body', ...(err.param ?? '').split(/[.[\]]+/).filter((p) => p !== '').map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
  const type = /^Missing required/.test(err.message) ? 'missing' : /JSON/.test(err.message) ? 'json_invalid' : 'value_error';
  return new BadRequestError(err.message, err.param, { status: 422, details: [{ type, loc, msg: err.message }] });
}

function asMistral<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw err instanceof BadRequestError ? validation(err) : err;
  }
}

/**
 * Parses `POST /v1/chat/completions` from a Mistral client; tool-call ids become the engine's.
 * @example
 *   parseMistralChat(req, ids).provider // 'mistral'
 */
export function parseMistralChat(req: IncomingRequest, ids: MistralToolIds): CanonicalRequest {
  const canonical = asMistral(() => parseChatRequest(req));
  for (const m of canonical.messages) {
    if (m.toolCallId !== undefined) m.toolCallId = ids.canonical(m.toolCallId);
    for (const call of m.toolCalls ?? []) call.id = ids.canonical(call.id);
  }
  return { ...canonical, provider: 'mistral' };
}

/**
 * Parses `POST /v1/embeddings` from a Mistral client (provider `embeddings`, as every embeddings API).
 * @example
 *   parseMistralEmbeddings(req).input // ['text']
 */
export function parseMistralEmbeddings(req: IncomingRequest): CanonicalRequest {
  return asMistral(() => parseOpenAIEmbeddingsRequest(req));
}
