/**
 * Gemini `generateContent` / `streamGenerateContent` request → canonical request. The model comes
 * from the URL (`/v1beta/models/{model}:generateContent`); `systemInstruction` becomes a system
 * message, `functionResponse` parts become tool messages answering the matching `functionCall`.
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, CanonicalToolCall } from '../../scenario/canonical.ts';
import { decodeSegment } from '../common/models.ts';
import { asText, headerRecord, isObject, parseJsonObject, restParams, typeName, type Json } from '../common/wire-json.ts';
import { geminiResponseFormat, geminiToolChoice, openApiToJsonSchema } from './schema.ts';
import { signatureViolations, type GeminiThoughts, type GoogleApi } from './thoughts.ts';
import type { ToolListMemo } from '../common/tool-list-memo.ts';

/** `/{version}/models/{model}:{method}`; tuned models live under `tunedModels/`. */
const GEMINI_PATH = /^\/(v1|v1beta|v1alpha)\/((?:models|tunedModels)\/[^/:]+):([A-Za-z]+)$/;

export interface GeminiRoute {
  version: string;
  /** The model segment's percent-escapes are malformed (`model` is then the raw segment): a 400 when parsed. */
  badEscape?: boolean;
  /** The model id without `models/`. */
  model: string;
  method: string;
}

/**
 * Splits a Gemini method path, or null when the path is not one.
 * @example
 *   geminiRoute('/v1beta/models/gemini-2.5-flash:generateContent') // { version: 'v1beta', model: 'gemini-2.5-flash', method: 'generateContent' }
 */
export function geminiRoute(path: string): GeminiRoute | null {
  const m = GEMINI_PATH.exec(path);
  if (!m) return null;
  const decoded = decodeSegment(m[2]);
  const route: GeminiRoute = { version: m[1], model: (decoded ?? m[2]).replace(/^models\//, ''), method: m[3] };
  if (decoded === null) route.badEscape = true;
  return route;
}

/** Google's 400 for a model name whose percent-escapes do not decode. */
export function badModelEscape(route: GeminiRoute): BadRequestError {
  return new BadRequestError(`Invalid resource name: the model "${route.model}" is not a valid URL-encoded name.`, 'model');
}

/**
 * Google's 400 for a field of the wrong shape, naming the field path.
 * @example
 *   throw googleInvalid('contents[0].parts', 'a list of parts', 'hi');
 */
export function googleInvalid(path: string, expected: string, got: unknown): BadRequestError {
  return new BadRequestError(`Invalid value at '${path}': expected ${expected}, got ${typeName(got)}`, path);
}

/**
 * The text parts of a Content object joined by newlines (system instructions, embedding inputs).
 * @example
 *   partsText({ parts: [{ text: 'a' }, { text: 'b' }] }, 'content') // 'a\nb'
 */
export function partsText(content: unknown, path: string): string {
  if (!isObject(content)) throw googleInvalid(path, 'a Content object ({ parts: [...] })', content);
  if (!Array.isArray(content.parts)) throw googleInvalid(`${path}.parts`, 'a list of parts', content.parts);
  return content.parts
    .filter((p): p is Json => isObject(p) && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/** Calls made so far, so a functionResponse without an id answers the latest unanswered call of that name. */
class CallLedger {
  #open: CanonicalToolCall[] = [];
  #count = 0;

  add(name: string, id: unknown, args: unknown): CanonicalToolCall {
    // Gemini often omits call ids; a stable synthetic one lets results point back at their call.
    const call = { id: typeof id === 'string' && id.length > 0 ? id : `${name}#${this.#count}`, name, arguments: args ?? {} };
    this.#count += 1;
    this.#open.push(call);
    return call;
  }

  answer(name: string, id: unknown): string {
    const index =
      typeof id === 'string' && id.length > 0
        ? this.#open.findIndex((c) => c.id === id)
        : this.#open.findLastIndex((c) => c.name === name);
    if (index < 0) return typeof id === 'string' && id.length > 0 ? id : name;
    const [call] = this.#open.splice(index, 1);
    return call.id;
  }
}

function parseContents(value: unknown): CanonicalMessage[] {
  if (value === undefined) throw new BadRequestError('* GenerateContentRequest.contents: contents is not specified', 'contents');
  if (!Array.isArray(value)) throw googleInvalid('contents', 'a list of Content objects', value);
  const ledger = new CallLedger();
  const messages: CanonicalMessage[] = [];
  value.forEach((content, i) => {
    const p = `contents[${i}]`;
    if (!isObject(content)) throw googleInvalid(p, 'a Content object', content);
    const role = content.role ?? 'user';
    if (role !== 'user' && role !== 'model' && role !== 'function') {
      throw new BadRequestError(`Please use a valid role: user, model. Got '${String(role)}' at '${p}.role'.`, `${p}.role`);
    }
    if (!Array.isArray(content.parts)) throw googleInvalid(`${p}.parts`, 'a list of parts', content.parts);
    const texts: string[] = [];
    const calls: CanonicalToolCall[] = [];
    const results: CanonicalMessage[] = [];
    content.parts.forEach((part, j) => {
      const pp = `${p}.parts[${j}]`;
      if (!isObject(part)) throw googleInvalid(pp, 'a Part object', part);
      if (part.thought === true) return;
      if (typeof part.text === 'string') texts.push(part.text);
      if (part.functionCall !== undefined) {
        const fc = part.functionCall;
        if (!isObject(fc) || typeof fc.name !== 'string') throw googleInvalid(`${pp}.function_call.name`, 'a string', isObject(fc) ? fc.name : fc);
        calls.push(ledger.add(fc.name, fc.id, fc.args));
      }
      if (part.functionResponse !== undefined) {
        const fr = part.functionResponse;
        if (!isObject(fr) || typeof fr.name !== 'string') {
          throw googleInvalid(`${pp}.function_response.name`, 'a string', isObject(fr) ? fr.name : fr);
        }
        results.push({ role: 'tool', content: asText(fr.response ?? {}), toolCallId: ledger.answer(fr.name, fr.id), toolName: fr.name });
      }
    });
    messages.push(...results);
    if (role === 'model') {
      const msg: CanonicalMessage = { role: 'assistant', content: texts.join('\n') };
      if (calls.length > 0) msg.toolCalls = calls;
      messages.push(msg);
    } else if (texts.length > 0 || results.length === 0) {
      messages.push({ role: 'user', content: texts.join('\n') });
    }
  });
  return messages;
}

function parseTools(value: unknown): CanonicalTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw googleInvalid('tools', 'a list of Tool objects', value);
  const tools: CanonicalTool[] = [];
  value.forEach((tool, i) => {
    if (!isObject(tool)) throw googleInvalid(`tools[${i}]`, 'a Tool object', tool);
    const decls = tool.functionDeclarations ?? tool.function_declarations;
    if (decls === undefined) return;
    if (!Array.isArray(decls)) throw googleInvalid(`tools[${i}].function_declarations`, 'a list', decls);
    decls.forEach((d, j) => {
      const p = `tools[${i}].function_declarations[${j}]`;
      if (!isObject(d) || typeof d.name !== 'string') throw googleInvalid(`${p}.name`, 'a string', isObject(d) ? d.name : d);
      const canonical: CanonicalTool = { name: d.name };
      if (typeof d.description === 'string') canonical.description = d.description;
      // `parameters` is Google's OpenAPI subset (uppercase types): canonical tools hold JSON Schema.
      if (d.parametersJsonSchema !== undefined) canonical.parameters = d.parametersJsonSchema;
      else if (d.parameters !== undefined) canonical.parameters = openApiToJsonSchema(d.parameters);
      tools.push(canonical);
    });
  });
  return tools;
}

/**
 * Parses a Gemini generate request; `stream` is true for `:streamGenerateContent`. With the mock's
 * `thoughts`, the thought-signature rules are checked (in `api`'s wording) and found breaches listed
 * in `violations`; without (countTokens), they are not.
 * @example
 *   parseGeminiRequest(req).model // 'gemini-2.5-flash', from the URL
 */
export function parseGeminiRequest(req: IncomingRequest, thoughts?: GeminiThoughts, api: GoogleApi = 'gemini', memo?: ToolListMemo): CanonicalRequest {
  const route = geminiRoute(req.path);
  if (!route) throw new BadRequestError(`Not a Gemini generate path: ${req.path}`);
  if (route.badEscape) throw badModelEscape(route);
  const body = parseJsonObject(req.bodyText, memo);
  const messages = parseContents(body.contents);
  const system = body.systemInstruction ?? body.system_instruction;
  if (system !== undefined && system !== null) {
    messages.unshift({ role: 'system', content: typeof system === 'string' ? system : partsText(system, 'system_instruction') });
  }
  if (body.generationConfig !== undefined && !isObject(body.generationConfig)) {
    throw googleInvalid('generation_config', 'a GenerationConfig object', body.generationConfig);
  }
  const tools = parseTools(body.tools);
  const choice = geminiToolChoice(body.toolConfig ?? body.tool_config, tools);
  if (choice.strict) for (const tool of tools) tool.strict = true;
  const request: CanonicalRequest = {
    provider: 'gemini',
    path: req.path,
    model: route.model,
    stream: route.method === 'streamGenerateContent',
    messages,
    tools,
    headers: headerRecord(req.headers),
    params: restParams(body, ['contents', 'systemInstruction', 'system_instruction', 'tools']),
    raw: body,
  };
  const responseFormat = geminiResponseFormat(body.generationConfig ?? body.generation_config);
  if (responseFormat) request.responseFormat = responseFormat;
  if (choice.forcedTool !== undefined) request.forcedTool = choice.forcedTool;
  const violations = thoughts ? signatureViolations(body.contents, route.model, thoughts, api) : [];
  if (violations.length > 0) request.violations = violations;
  return request;
}
