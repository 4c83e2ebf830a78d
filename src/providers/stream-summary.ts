/**
 * Readable views of recorded provider answers: which wire API a URL belongs to, and the assembled
 * text, tool calls, finish reason and token usage of a JSON body or a list of SSE frames.
 * Used by goldens (the summary beside the raw events, drift detection, `ghostwire inspect`).
 */

export type WireApi = 'openai' | 'openai-responses' | 'anthropic' | 'gemini' | 'embeddings';

export interface AnswerView {
  text: string;
  toolCalls: Array<{ id: string | null; name: string; arguments: unknown }>;
  finishReason: string | null;
  usage: { inputTokens: number; outputTokens: number } | null;
}

/**
 * Which wire API a request path belongs to; null for anything else.
 * @example detectWireApi('POST', '/v1/chat/completions') // 'openai'
 */
export function detectWireApi(method: string, path: string): WireApi | null {
  if (method.toUpperCase() !== 'POST') return null;
  if (/\/chat\/completions$/.test(path)) return 'openai';
  if (/\/responses$/.test(path)) return 'openai-responses';
  if (/\/messages$/.test(path)) return 'anthropic';
  if (/\/embeddings$/.test(path) || /:(batchEmbedContents|embedContent)$/.test(path)) return 'embeddings';
  if (/\/models\/[^/]+:(streamGenerateContent|generateContent)$/.test(path)) return 'gemini';
  return null;
}

/**
 * The model a request asked for (from the body, or from the URL for Gemini).
 * @example requestModel('gemini', '/v1/models/gemini-2.5-flash:generateContent', {}) // 'gemini-2.5-flash'
 */
export function requestModel(api: WireApi | null, path: string, body: unknown): string | null {
  const fromPath = /\/models\/([^/:]+):/.exec(path)?.[1];
  if (api === 'gemini' || (api === 'embeddings' && fromPath)) return fromPath ?? null;
  const model = body && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : null;
}

/** The `data:` payloads of SSE frames, JSON-parsed; `[DONE]` and non-JSON payloads are skipped. */
function sseJsonPayloads(frames: readonly string[]): Array<{ event: string | null; data: any }> {
  const out: Array<{ event: string | null; data: any }> = [];
  for (const frame of frames) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) continue;
    try {
      out.push({ event, data: JSON.parse(data.join('\n')) });
    } catch {
      // `[DONE]` and keep-alives carry no JSON.
    }
  }
  return out;
}

/**
 * Assembles a streamed answer from its SSE frames.
 * @example summarizeSse('openai', frames).text // 'Sunny in Paris'
 */
export function summarizeSse(api: WireApi | null, frames: readonly string[]): AnswerView {
  const payloads = sseJsonPayloads(frames);
  switch (api) {
    case 'openai':
      return openaiChatStream(payloads.map((p) => p.data));
    case 'openai-responses': {
      const done = payloads.find((p) => p.data?.type === 'response.completed' || p.data?.type === 'response.incomplete');
      if (done) return summarizeJson(api, done.data.response);
      return { text: payloads.map((p) => (p.data?.type === 'response.output_text.delta' ? p.data.delta : '')).join(''), toolCalls: [], finishReason: null, usage: null };
    }
    case 'anthropic':
      return anthropicStream(payloads.map((p) => p.data));
    case 'gemini':
      return merge(payloads.map((p) => summarizeJson('gemini', p.data)));
    default:
      return { text: '', toolCalls: [], finishReason: null, usage: null };
  }
}

/**
 * Reads a non-streamed answer body.
 * @example summarizeJson('anthropic', { content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn' }).text // 'hi'
 */
export function summarizeJson(api: WireApi | null, body: any): AnswerView {
  const empty: AnswerView = { text: '', toolCalls: [], finishReason: null, usage: null };
  if (!body || typeof body !== 'object') return empty;
  switch (api) {
    case 'openai': {
      const choice = body.choices?.[0] ?? {};
      const message = choice.message ?? {};
      return {
        text: typeof message.content === 'string' ? message.content : '',
        toolCalls: (message.tool_calls ?? []).map((c: any) => ({ id: c.id ?? null, name: c.function?.name ?? '', arguments: parseArgs(c.function?.arguments) })),
        finishReason: choice.finish_reason ?? null,
        usage: openaiUsage(body.usage),
      };
    }
    case 'openai-responses': {
      const output: any[] = body.output ?? [];
      const text = output
        .filter((o) => o.type === 'message')
        .flatMap((o) => o.content ?? [])
        .filter((c: any) => c.type === 'output_text')
        .map((c: any) => c.text)
        .join('');
      const toolCalls = output.filter((o) => o.type === 'function_call').map((o) => ({ id: o.call_id ?? null, name: o.name, arguments: parseArgs(o.arguments) }));
      const usage = body.usage ? { inputTokens: body.usage.input_tokens ?? 0, outputTokens: body.usage.output_tokens ?? 0 } : null;
      return { text, toolCalls, finishReason: body.status ?? null, usage };
    }
    case 'anthropic': {
      const content: any[] = body.content ?? [];
      return {
        text: content.filter((c) => c.type === 'text').map((c) => c.text).join(''),
        toolCalls: content.filter((c) => c.type === 'tool_use').map((c) => ({ id: c.id ?? null, name: c.name, arguments: c.input ?? {} })),
        finishReason: body.stop_reason ?? null,
        usage: body.usage ? { inputTokens: body.usage.input_tokens ?? 0, outputTokens: body.usage.output_tokens ?? 0 } : null,
      };
    }
    case 'gemini': {
      const candidate = body.candidates?.[0] ?? {};
      const parts: any[] = candidate.content?.parts ?? [];
      const meta = body.usageMetadata;
      return {
        text: parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join(''),
        toolCalls: parts.filter((p) => p.functionCall).map((p) => ({ id: p.functionCall.id ?? null, name: p.functionCall.name, arguments: p.functionCall.args ?? {} })),
        finishReason: candidate.finishReason ?? null,
        usage: meta ? { inputTokens: meta.promptTokenCount ?? 0, outputTokens: meta.candidatesTokenCount ?? 0 } : null,
      };
    }
    case 'embeddings':
      return { ...empty, usage: openaiUsage(body.usage) };
    default:
      return empty;
  }
}

function openaiUsage(usage: any): AnswerView['usage'] {
  return usage ? { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 } : null;
}

/** Tool-call arguments as sent (a JSON string, usually) parsed; text that is not JSON stays text. */
export function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  if (args === '') return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function openaiChatStream(chunks: any[]): AnswerView {
  let text = '';
  let finishReason: string | null = null;
  let usage: AnswerView['usage'] = null;
  const calls = new Map<number, { id: string | null; name: string; args: string }>();
  for (const chunk of chunks) {
    if (chunk.usage) usage = openaiUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (typeof choice.delta?.content === 'string') text += choice.delta.content;
    for (const tc of choice.delta?.tool_calls ?? []) {
      const slot = calls.get(tc.index ?? 0) ?? { id: null, name: '', args: '' };
      if (tc.id) slot.id = tc.id;
      if (tc.function?.name) slot.name += tc.function.name;
      if (tc.function?.arguments) slot.args += tc.function.arguments;
      calls.set(tc.index ?? 0, slot);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => ({ id: c.id, name: c.name, arguments: parseArgs(c.args) }));
  return { text, toolCalls, finishReason, usage };
}

function anthropicStream(events: any[]): AnswerView {
  const blocks = new Map<number, { type: string; text: string; id: string | null; name: string; json: string; input: unknown }>();
  let finishReason: string | null = null;
  let inputTokens = 0;
  let outputTokens = 0;
  let sawUsage = false;
  for (const e of events) {
    if (e.type === 'message_start' && e.message?.usage) {
      sawUsage = true;
      inputTokens = e.message.usage.input_tokens ?? 0;
      outputTokens = e.message.usage.output_tokens ?? 0;
    } else if (e.type === 'content_block_start') {
      const b = e.content_block ?? {};
      blocks.set(e.index, { type: b.type, text: b.text ?? '', id: b.id ?? null, name: b.name ?? '', json: '', input: b.input });
    } else if (e.type === 'content_block_delta') {
      const b = blocks.get(e.index);
      if (!b) continue;
      if (e.delta?.type === 'text_delta') b.text += e.delta.text;
      if (e.delta?.type === 'input_json_delta') b.json += e.delta.partial_json;
    } else if (e.type === 'message_delta') {
      if (e.delta?.stop_reason) finishReason = e.delta.stop_reason;
      if (e.usage) {
        sawUsage = true;
        if (typeof e.usage.input_tokens === 'number') inputTokens = e.usage.input_tokens;
        if (typeof e.usage.output_tokens === 'number') outputTokens = e.usage.output_tokens;
      }
    }
  }
  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b);
  return {
    text: ordered.filter((b) => b.type === 'text').map((b) => b.text).join(''),
    toolCalls: ordered.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, arguments: b.json ? parseArgs(b.json) : (b.input ?? {}) })),
    finishReason,
    usage: sawUsage ? { inputTokens, outputTokens } : null,
  };
}

function merge(views: AnswerView[]): AnswerView {
  return {
    text: views.map((v) => v.text).join(''),
    toolCalls: views.flatMap((v) => v.toolCalls),
    finishReason: views.map((v) => v.finishReason).filter((f) => f !== null).pop() ?? null,
    // Gemini repeats cumulative usage on chunks; the last one is the total.
    usage: views.map((v) => v.usage).filter((u) => u !== null).pop() ?? null,
  };
}
