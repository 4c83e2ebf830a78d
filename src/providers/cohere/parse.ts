/**
 * Cohere v2 requests → canonical: `POST /v2/chat` (messages with string or text-part content,
 * `tool_calls` on assistant turns, `tool` results by `tool_call_id`, function tools) and
 * `POST /v2/embed` (`texts` or `inputs`, `input_type`, `embedding_types`, `output_dimension`).
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import { embeddingModel } from '../common/embedding-models.ts';
import { asText, headerRecord, isObject, parseArguments, parseJsonObject, restParams, typeName, type Json } from '../common/wire-json.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalResponseFormat, CanonicalTool } from '../../scenario/canonical.ts';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
export const EMBEDDING_TYPES = ['float', 'int8', 'uint8', 'binary', 'ubinary', 'base64'] as const;
const INPUT_TYPES = new Set(['search_document', 'search_query', 'classification', 'clustering', 'image']);
/** embed-v4.0 answers these sizes only (Matryoshka cuts); other models take no size. */
const V4_SIZES = [256, 512, 1024, 1536];
/** The API's limit of texts per embed request. */
const MAX_TEXTS = 96;

/** Cohere's wording for a request it refuses: `invalid request: …`, naming the field. */
const invalid = (field: string, what: string): BadRequestError => new BadRequestError(`invalid request: ${field} ${what}`, field);

/** Text of a string or a list of `{ type: 'text', text }` / `{ type: 'document', document }` parts. */
function contentText(content: unknown, at: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(at, `must be a string or a list of content parts, got ${typeName(content)}`);
  return content
    .map((part, i) => {
      if (!isObject(part)) throw invalid(`${at}[${i}]`, `must be an object, got ${typeName(part)}`);
      if (part.type === 'text') return typeof part.text === 'string' ? part.text : '';
      if (part.type === 'document') return asText((part.document as Json | undefined)?.data);
      if (part.type === 'thinking') return '';
      throw invalid(`${at}[${i}].type`, `must be one of text, document, thinking, got ${JSON.stringify(part.type)}`);
    })
    .join('');
}

function message(m: unknown, i: number): CanonicalMessage {
  const at = `messages[${i}]`;
  if (!isObject(m)) throw invalid(at, `must be an object, got ${typeName(m)}`);
  if (typeof m.role !== 'string' || !ROLES.has(m.role)) throw invalid(`${at}.role`, 'must be one of system, user, assistant, tool');
  const content = contentText(m.content, `${at}.content`);
  if (m.role === 'tool') {
    if (typeof m.tool_call_id !== 'string') throw invalid(`${at}.tool_call_id`, 'is required for a tool message');
    return { role: 'tool', content, toolCallId: m.tool_call_id };
  }
  const out: CanonicalMessage = { role: m.role as CanonicalMessage['role'], content };
  if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
    out.toolCalls = m.tool_calls.map((c: unknown, j) => {
      const fn = isObject(c) && isObject(c.function) ? c.function : {};
      return { id: isObject(c) && typeof c.id === 'string' ? c.id : `${at}.tool_calls[${j}]`, name: String(fn.name ?? ''), arguments: parseArguments(String(fn.arguments ?? '{}')) };
    });
  }
  return out;
}

function tools(raw: unknown): CanonicalTool[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid('tools', `must be a list, got ${typeName(raw)}`);
  return raw.map((t, i) => {
    const fn = isObject(t) ? t.function : undefined;
    if (!isObject(t) || t.type !== 'function' || !isObject(fn) || typeof fn.name !== 'string') {
      throw invalid(`tools[${i}]`, "must be { type: 'function', function: { name, parameters } }");
    }
    return { name: fn.name, ...(typeof fn.description === 'string' ? { description: fn.description } : {}), parameters: fn.parameters };
  });
}

/**
 * Parses `POST /v2/chat` (the SDK's `chat` and `chatStream`, which adds `stream: true`).
 * @example
 *   parseCohereChat(req).messages[0] // { role: 'user', content: 'hi' }
 */
export function parseCohereChat(req: IncomingRequest): CanonicalRequest {
  const body = parseJsonObject(req.bodyText);
  if (typeof body.model !== 'string' || body.model === '') throw invalid('model', 'is required and must be a string');
  if (!Array.isArray(body.messages)) throw invalid('messages', `is required and must be a list, got ${typeName(body.messages)}`);
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw invalid('stream', 'must be a boolean');
  // `strict_tools: true` guarantees calls fit their tools' parameters; `tool_choice: REQUIRED` with one tool forces it.
  const declared = tools(body.tools).map((t) => (body.strict_tools === true ? { ...t, strict: true } : t));
  const request: CanonicalRequest = {
    provider: 'cohere',
    path: req.path,
    model: body.model,
    stream: body.stream === true,
    messages: body.messages.map(message),
    tools: declared,
    headers: headerRecord(req.headers),
    params: restParams(body, ['model', 'messages', 'tools', 'stream']),
    raw: body,
  };
  const format = responseFormat(body.response_format);
  if (format) request.responseFormat = format;
  if (body.tool_choice === 'REQUIRED' && declared.length === 1) request.forcedTool = declared[0].name;
  return request;
}

/**
 * `response_format`: `{ type: 'json_object' }`, with an optional `json_schema`
 * (https://docs.cohere.com/docs/structured-outputs); `text` asks for none.
 */
function responseFormat(value: unknown): CanonicalResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || (value.type !== 'text' && value.type !== 'json_object')) throw invalid('response_format.type', 'must be one of text, json_object');
  if (value.type === 'text') return undefined;
  const schema = value.json_schema ?? value.schema;
  return { name: null, schema: schema === undefined || schema === null ? null : schema };
}

/** The texts of `inputs` (`[{ content: [{ type: 'text', text }] }]`), images left out. */
function inputsTexts(inputs: unknown[]): string[] {
  return inputs.map((input, i) => {
    if (!isObject(input)) throw invalid(`inputs[${i}]`, `must be an object, got ${typeName(input)}`);
    return contentText(input.content, `inputs[${i}].content`);
  });
}

/**
 * Parses `POST /v2/embed`: provider `embeddings`, as every embeddings API; the vector size is the
 * model's own or `output_dimension` where the model takes one (embed-v4.0).
 * @example
 *   parseCohereEmbed(req).dimensions // 1024 for embed-english-v3.0
 */
export function parseCohereEmbed(req: IncomingRequest): CanonicalRequest {
  const body = parseJsonObject(req.bodyText);
  if (typeof body.model !== 'string' || body.model === '') throw invalid('model', 'is required and must be a string');
  if (typeof body.input_type !== 'string' || !INPUT_TYPES.has(body.input_type)) {
    throw invalid('input_type', `must be one of ${[...INPUT_TYPES].join(', ')}`);
  }
  const texts = Array.isArray(body.texts) ? body.texts : Array.isArray(body.inputs) ? inputsTexts(body.inputs) : null;
  if (texts === null) throw invalid('texts', 'is required (or inputs) and must be a list of strings');
  if (!texts.every((t) => typeof t === 'string')) throw invalid('texts', 'must be a list of strings');
  if (texts.length > MAX_TEXTS) throw invalid('texts', `must have at most ${MAX_TEXTS} items, got ${texts.length}`);
  const types = body.embedding_types ?? ['float'];
  if (!Array.isArray(types) || types.length === 0 || !types.every((t) => (EMBEDDING_TYPES as readonly unknown[]).includes(t))) {
    throw invalid('embedding_types', `must be a list of ${EMBEDDING_TYPES.join(', ')}`);
  }
  const model = embeddingModel(body.model);
  let dimensions = model.dimensions;
  if (body.output_dimension !== undefined && body.output_dimension !== null) {
    if (model.maxDimensions === 0) throw invalid('output_dimension', `is not supported for model ${body.model}`);
    const allowed = V4_SIZES.filter((s) => s <= model.maxDimensions);
    if (!allowed.includes(body.output_dimension as number)) throw invalid('output_dimension', `must be one of ${allowed.join(', ')}`);
    dimensions = body.output_dimension as number;
  }
  return {
    provider: 'embeddings',
    path: req.path,
    model: body.model,
    stream: false,
    messages: (texts as string[]).map((content) => ({ role: 'user', content })),
    tools: [],
    headers: headerRecord(req.headers),
    params: { ...restParams(body, ['model', 'texts', 'inputs', 'output_dimension']), embedding_types: types },
    input: texts as string[],
    dimensions,
    raw: body,
  };
}
