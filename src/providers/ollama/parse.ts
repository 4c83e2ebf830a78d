/**
 * Ollama requests → canonical: `/api/chat` (messages, tools, `tool_name` results), `/api/generate`
 * (`system` + `prompt`) and `/api/embed` (`input`). `stream` is true unless the body says false, as
 * the API defaults. Ollama's tool calls carry no ids: a call the adapter rendered maps back to the
 * engine's id by name and arguments, and a result answers the oldest open call of its tool.
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import { asText, headerRecord, isObject, parseJsonObject, restParams, typeName, type Json } from '../common/wire-json.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalTool } from '../../scenario/canonical.ts';

/** The engine's ids of the calls this adapter rendered, by tool name and arguments. */
export type CallIds = (name: string, args: unknown) => string | undefined;

const bad = (message: string) => new BadRequestError(message);

function modelOf(body: Json): string {
  if (body.model === undefined || body.model === '') throw bad('model is required');
  if (typeof body.model !== 'string') throw bad(`json: cannot unmarshal ${typeName(body.model).replace(/^an? /, '')} into Go struct field .model of type string`);
  return body.model;
}

function base(req: IncomingRequest, body: Json, provider: 'ollama' | 'embeddings', taken: string[]): Omit<CanonicalRequest, 'messages' | 'tools'> {
  return { provider, path: req.path, model: modelOf(body), stream: body.stream !== false, headers: headerRecord(req.headers), params: restParams(body, taken), raw: body };
}

function parseTools(tools: unknown): CanonicalTool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw bad('json: cannot unmarshal tools: expected an array');
  return tools.map((t, i) => {
    const fn = isObject(t) && isObject(t.function) ? t.function : null;
    if (!fn || typeof fn.name !== 'string') throw bad(`tools[${i}].function.name is required`);
    const tool: CanonicalTool = { name: fn.name };
    if (typeof fn.description === 'string') tool.description = fn.description;
    if (fn.parameters !== undefined) tool.parameters = fn.parameters;
    return tool;
  });
}

function parseMessages(messages: unknown, ids: CallIds): CanonicalMessage[] {
  if (messages === undefined || messages === null) return [];
  if (!Array.isArray(messages)) throw bad('json: cannot unmarshal messages: expected an array');
  const open: Array<{ id: string; name: string }> = [];
  let minted = 0;
  return messages.map((m, i): CanonicalMessage => {
    if (!isObject(m)) throw bad(`messages[${i}]: expected an object`);
    const role = m.role;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') throw bad(`messages[${i}].role: invalid role ${JSON.stringify(role)}`);
    const content = asText(m.content ?? '');
    if (role === 'tool') {
      const name = typeof m.tool_name === 'string' ? m.tool_name : undefined;
      const at = open.findIndex((c) => name === undefined || c.name === name);
      const call = at === -1 ? undefined : open.splice(at, 1)[0];
      const out: CanonicalMessage = { role, content, toolCallId: call?.id ?? `${name ?? 'tool'}#result${i}` };
      if (name ?? call?.name) out.toolName = name ?? call?.name;
      return out;
    }
    const out: CanonicalMessage = { role, content };
    if (role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      out.toolCalls = m.tool_calls.map((c, j) => {
        const fn = isObject(c) && isObject(c.function) ? c.function : null;
        if (!fn || typeof fn.name !== 'string') throw bad(`messages[${i}].tool_calls[${j}].function.name is required`);
        const id = ids(fn.name, fn.arguments ?? {}) ?? `${fn.name}#${minted++}`;
        open.push({ id, name: fn.name });
        return { id, name: fn.name, arguments: fn.arguments ?? {} };
      });
    }
    return out;
  });
}

/**
 * Parses `POST /api/chat`.
 * @example
 *   parseOllamaChat(req, ids).stream // true unless the body sends "stream": false
 */
export function parseOllamaChat(req: IncomingRequest, ids: CallIds): CanonicalRequest {
  const body = parseJsonObject(req.bodyText);
  return withFormat({ ...base(req, body, 'ollama', ['model', 'messages', 'tools', 'stream']), messages: parseMessages(body.messages, ids), tools: parseTools(body.tools) }, body);
}

/**
 * Ollama's structured outputs: `format: "json"` (any JSON) or `format: <JSON Schema>`
 * (https://docs.ollama.com/capabilities/structured-outputs); an empty string asks for none.
 */
function withFormat(request: CanonicalRequest, body: Json): CanonicalRequest {
  const format = body.format;
  if (format === 'json') request.responseFormat = { name: null, schema: null };
  else if (isObject(format)) request.responseFormat = { name: null, schema: format };
  else if (format !== undefined && format !== null && format !== '') throw bad(`invalid format: expected "json" or a valid JSON schema`);
  return request;
}

/**
 * Parses `POST /api/generate`: `system` and `prompt` become a conversation of one turn.
 * @example
 *   parseOllamaGenerate(req).messages // [{ role: 'user', content: 'Why is the sky blue?' }]
 */
export function parseOllamaGenerate(req: IncomingRequest): CanonicalRequest {
  const body = parseJsonObject(req.bodyText);
  const messages: CanonicalMessage[] = [];
  if (body.system !== undefined && body.system !== null) messages.push({ role: 'system', content: asText(body.system) });
  if (body.prompt !== undefined && body.prompt !== null) {
    if (typeof body.prompt !== 'string') throw bad('json: cannot unmarshal prompt: expected a string');
    messages.push({ role: 'user', content: body.prompt });
  }
  return withFormat({ ...base(req, body, 'ollama', ['model', 'prompt', 'system', 'stream']), messages, tools: [] }, body);
}

/** The most inputs one embed request may carry here (the server's batch is bounded too). */
const MAX_INPUTS = 2048;

/**
 * Parses `POST /api/embed` (and the older `/api/embeddings`, whose text is `prompt`).
 * @example
 *   parseOllamaEmbed(req).input // ['first', 'second']
 */
export function parseOllamaEmbed(req: IncomingRequest, dimensions: (model: string) => { dimensions: number; maxDimensions: number }): CanonicalRequest {
  const body = parseJsonObject(req.bodyText);
  const raw = body.input ?? body.prompt;
  const input = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((x) => typeof x === 'string') ? (raw as string[]) : null;
  if (input === null) throw bad('invalid input type');
  if (input.length > MAX_INPUTS) throw bad(`too many inputs: at most ${MAX_INPUTS}`);
  const model = modelOf(body);
  const size = dimensions(model.replace(/:[^/]*$/, ''));
  let wanted = size.dimensions;
  if (body.dimensions !== undefined && body.dimensions !== null) {
    if (!Number.isInteger(body.dimensions) || (body.dimensions as number) < 1 || (body.dimensions as number) > Math.max(size.dimensions, size.maxDimensions)) {
      throw bad(`invalid dimensions: must be between 1 and ${Math.max(size.dimensions, size.maxDimensions)}`);
    }
    wanted = body.dimensions as number;
  }
  const messages = input.map((content): CanonicalMessage => ({ role: 'user', content }));
  return { ...base(req, body, 'embeddings', ['model', 'input', 'prompt', 'dimensions']), stream: false, messages, tools: [], input, dimensions: wanted };
}
