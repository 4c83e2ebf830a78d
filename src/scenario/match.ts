import type { CanonicalMessage, CanonicalRequest } from './canonical.ts';
import type { Match, MessageMatch, TextMatch } from './schema.ts';

/**
 * Step matching. Every constraint of a `match` is checked against the whole canonical request;
 * the result is the list of constraints that failed, each phrased for a person
 * (`model: expected "gpt-4o", got "gpt-4o-mini"`), so near misses explain themselves.
 */

const SHOWN = 60;

function show(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > SHOWN ? `${flat.slice(0, SHOWN)}…` : flat);
}

function describeText(match: TextMatch): string {
  if (typeof match === 'string') return JSON.stringify(match);
  if ('equals' in match) return JSON.stringify(match.equals);
  if ('contains' in match) return `to contain ${JSON.stringify(match.contains)}`;
  return `to match /${match.regex}/${match.flags ?? ''}`;
}

/**
 * Does `value` satisfy the text constraint?
 * @example
 *   textMatches({ contains: 'weather' }, 'what is the weather') // true
 */
export function textMatches(match: TextMatch, value: string): boolean {
  if (typeof match === 'string') return value === match;
  if ('equals' in match) return value === match.equals;
  if ('contains' in match) return value.includes(match.contains);
  return new RegExp(match.regex, match.flags).test(value);
}

function textFailure(field: string, match: TextMatch, value: string | undefined): string | null {
  if (value !== undefined && textMatches(match, value)) return null;
  return `${field}: expected ${describeText(match)}, got ${value === undefined ? 'nothing' : show(value)}`;
}

function messageFailures(field: string, match: MessageMatch, message: CanonicalMessage | undefined): string[] {
  if (!message) return [`${field}: expected a message, got none`];
  const failed: string[] = [];
  if (match.role && match.role !== message.role) failed.push(`${field}.role: expected "${match.role}", got "${message.role}"`);
  if (match.content !== undefined) {
    const f = textFailure(`${field}.content`, match.content, message.content);
    if (f) failed.push(f);
  }
  return failed;
}

/**
 * Tool results that arrived after the model's last turn: what this request answers.
 * @example
 *   latestToolResults(request).map((m) => m.toolCallId) // ['call_1']
 */
export function latestToolResults(request: CanonicalRequest): CanonicalMessage[] {
  const lastAssistant = request.messages.findLastIndex((m) => m.role === 'assistant');
  return request.messages.slice(lastAssistant + 1).filter((m) => m.role === 'tool');
}

/**
 * The tool's name for a tool-result message, looked up from the call it answers when the wire omits it.
 * @example
 *   toolResultName(request, { role: 'tool', content: '21', toolCallId: 'call_1' }) // 'get_weather'
 */
export function toolResultName(request: CanonicalRequest, result: CanonicalMessage): string | undefined {
  if (result.toolName) return result.toolName;
  for (const message of request.messages) {
    const call = message.toolCalls?.find((c) => c.id === result.toolCallId);
    if (call) return call.name;
  }
  return undefined;
}

/**
 * True when `request` certainly fails `match` on a field compared as it is (provider, path, a model
 * named exactly, stream): the engine skips such a step without describing why, and describes its
 * failures (`matchFailures`) only when no step matches. Each test here is the first clause of
 * `matchFailures` for its field, so a quick miss always has failures to name.
 * @example
 *   quickMiss({ model: 'gpt-4o' }, request) // true for a gpt-4o-mini request
 */
export function quickMiss(match: Match | undefined, request: CanonicalRequest): boolean {
  if (!match) return false;
  return (
    (match.provider !== undefined && match.provider !== request.provider) ||
    (!!match.path && match.path !== request.path) ||
    (typeof match.model === 'string' && match.model !== request.model) ||
    (match.stream !== undefined && match.stream !== request.stream)
  );
}

/**
 * The constraints of `match` that `request` fails; empty when it matches.
 * @example
 *   matchFailures({ model: 'gpt-4o' }, request) // ['model: expected "gpt-4o", got "gpt-4o-mini"']
 */
export function matchFailures(match: Match | undefined, request: CanonicalRequest): string[] {
  if (!match) return [];
  const failed: string[] = [];
  let f: string | null;
  if (match.provider && match.provider !== request.provider) {
    failed.push(`provider: expected "${match.provider}", got "${request.provider}"`);
  }
  if (match.path && match.path !== request.path) failed.push(`path: expected "${match.path}", got "${request.path}"`);
  if (match.model !== undefined && (f = textFailure('model', match.model, request.model))) failed.push(f);
  if (match.stream !== undefined && match.stream !== request.stream) {
    failed.push(`stream: expected ${match.stream}, got ${request.stream}`);
  }
  if (match.lastMessage) failed.push(...messageFailures('lastMessage', match.lastMessage, request.messages.at(-1)));
  match.messages?.forEach((wanted, i) => {
    const met = request.messages.some((m) => messageFailures('', wanted, m).length === 0);
    if (!met) {
      const what = [wanted.role && `role "${wanted.role}"`, wanted.content && `content ${describeText(wanted.content)}`];
      failed.push(`messages[${i}]: expected some message with ${what.filter(Boolean).join(' and ')}, none has it`);
    }
  });
  if (match.tools) {
    const offered = new Set(request.tools.map((t) => t.name));
    const missing = match.tools.filter((name) => !offered.has(name));
    if (missing.length) {
      failed.push(`tools: expected offered tools to include ${JSON.stringify(missing)}, got ${JSON.stringify([...offered])}`);
    }
  }
  if (match.toolResults !== undefined) {
    const results = latestToolResults(request);
    const names = results.map((r) => toolResultName(request, r) ?? `?${r.toolCallId ?? ''}`);
    if (match.toolResults === true) {
      if (results.length === 0) failed.push('toolResults: expected the request to carry tool results, got none');
    } else {
      const missing = match.toolResults.filter((name) => !names.includes(name));
      if (missing.length) {
        failed.push(`toolResults: expected results for ${JSON.stringify(missing)}, got ${JSON.stringify(names)}`);
      }
    }
  }
  if (match.responseFormat !== undefined) {
    const format = request.responseFormat;
    const structured = format !== undefined || request.forcedTool !== undefined;
    if (match.responseFormat === true) {
      if (!structured) failed.push('responseFormat: expected a structured-output request, got a free-text one');
    } else {
      const name = format?.name ?? request.forcedTool ?? null;
      if (name !== match.responseFormat) {
        failed.push(`responseFormat: expected the schema "${match.responseFormat}", got ${name === null ? (structured ? 'an unnamed one' : 'a free-text request') : `"${name}"`}`);
      }
    }
  }
  if (match.audio !== undefined) {
    const lastUser = request.messages.findLast((m) => m.role === 'user');
    const audio = lastUser?.audio === true;
    if (audio !== match.audio) failed.push(`audio: expected the last user message ${match.audio ? 'as audio' : 'as text'}, got ${lastUser ? (audio ? 'audio' : 'text') : 'none'}`);
  }
  if (match.headers) {
    for (const [name, wanted] of Object.entries(match.headers)) {
      if ((f = textFailure(`headers.${name}`, wanted, request.headers[name.toLowerCase()]))) failed.push(f);
    }
  }
  return failed;
}
