/**
 * Mistral requests → canonical. The chat wire is OpenAI's shape (snake_case messages, tools,
 * `tool_call_id`), so OpenAI's parser reads it; what differs is Mistral's: its validation errors
 * are FastAPI's 422 with a `detail` list, and its 9-character tool-call ids map back to the
 * engine's. Embeddings (`input`, `encoding_format`) read like OpenAI's too.
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import { parseChatRequest } from '../openai-chat/parse.ts';
import { parseOpenAIEmbeddingsRequest } from '../openai-embeddings/index.ts';
import type { CanonicalRequest, CanonicalResponseFormat } from '../../scenario/canonical.ts';
import { isObject } from '../common/wire-json.ts';
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
  const request: CanonicalRequest = { ...canonical, provider: 'mistral' };
  delete request.responseFormat;
  delete request.forcedTool;
  // OpenAI's protocol rules cite OpenAI's documents and wording; Mistral documents none of its own, so none apply.
  delete request.violations;
  const body = isObject(canonical.raw) ? canonical.raw : {};
  const format = asMistral(() => mistralResponseFormat(body.response_format));
  if (format) request.responseFormat = format;
  const forced = forcedTool(body.tool_choice, request.tools.map((t) => t.name));
  if (forced !== undefined) request.forcedTool = forced;
  // A function's `strict` (Mistral's FunctionT.strict) guarantees its arguments fit the parameters.
  const tools = Array.isArray(body.tools) ? body.tools : [];
  request.tools = request.tools.map((tool, i) => {
    const fn = isObject(tools[i]) ? tools[i].function : undefined;
    return isObject(fn) && fn.strict === true ? { ...tool, strict: true } : tool;
  });
  return request;
}

/**
 * `response_format`: `{ type: 'json_object' }` (any JSON) or `{ type: 'json_schema', json_schema:
 * { name, schema, strict } }` (https://docs.mistral.ai/capabilities/structured-output/); `text` asks for none.
 * @example
 *   mistralResponseFormat({ type: 'json_schema', json_schema: { name: 'book', schema: {} } }) // { name: 'book', schema: {} }
 */
export function mistralResponseFormat(value: unknown): CanonicalResponseFormat | undefined {
  if (value === undefined || value === null || !isObject(value) || value.type === undefined || value.type === 'text') return undefined;
  if (value.type === 'json_object') return { name: null, schema: null };
  if (value.type !== 'json_schema') throw new BadRequestError(`Input should be 'text', 'json_object' or 'json_schema'`, 'response_format.type');
  const spec = value.json_schema;
  if (!isObject(spec) || typeof spec.name !== 'string') throw new BadRequestError('Field required', 'response_format.json_schema.name');
  return { name: spec.name, schema: spec.schema ?? {} };
}

/** `tool_choice` naming one function, or `any`/`required` with one tool: the tool the answer must call. */
function forcedTool(choice: unknown, names: string[]): string | undefined {
  if (isObject(choice) && isObject(choice.function) && typeof choice.function.name === 'string') return choice.function.name;
  if ((choice === 'any' || choice === 'required') && names.length === 1) return names[0];
  return undefined;
}

/**
 * Parses `POST /v1/embeddings` from a Mistral client (provider `embeddings`, as every embeddings API).
 * @example
 *   parseMistralEmbeddings(req).input // ['text']
 */
export function parseMistralEmbeddings(req: IncomingRequest): CanonicalRequest {
  return asMistral(() => parseOpenAIEmbeddingsRequest(req));
}
