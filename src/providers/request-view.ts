/**
 * Readable views of recorded provider requests: the conversation a request carried (for
 * `ghostwire inspect`), and the message of an error body.
 */
import { parseArgs, type WireApi } from './stream-summary.ts';

/** One message of a recorded request, reduced for display. */
export interface MessageView {
  role: string;
  text: string;
  toolCalls?: Array<{ name: string; arguments: unknown }>;
  /** Tool results: the call id or tool name it answers. */
  answers?: string;
  isError?: boolean;
}

/**
 * The conversation a request carried, reduced for display (`ghostwire inspect`).
 * @example requestMessages('openai', { messages: [{ role: 'user', content: 'hi' }] }) // [{ role: 'user', text: 'hi' }]
 */
export function requestMessages(api: WireApi | null, body: any): MessageView[] {
  if (!body || typeof body !== 'object') return [];
  const text = (content: unknown): string =>
    typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: any) => (typeof c === 'string' ? c : (c?.text ?? (c?.type === 'tool_result' ? '' : '')))).join('') : '';
  switch (api) {
    case 'openai':
      return (body.messages ?? []).map((m: any): MessageView => ({
        role: m.role,
        text: text(m.content),
        ...(m.tool_calls ? { toolCalls: m.tool_calls.map((c: any) => ({ name: c.function?.name, arguments: parseArgs(c.function?.arguments) })) } : {}),
        ...(m.role === 'tool' ? { answers: m.tool_call_id } : {}),
      }));
    case 'openai-responses': {
      const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
      const out: MessageView[] = body.instructions ? [{ role: 'system', text: body.instructions }] : [];
      for (const item of input) {
        if (item.type === 'function_call') out.push({ role: 'assistant', text: '', toolCalls: [{ name: item.name, arguments: parseArgs(item.arguments) }] });
        else if (item.type === 'function_call_output') out.push({ role: 'tool', text: String(item.output), answers: item.call_id });
        else out.push({ role: item.role ?? 'user', text: typeof item.content === 'string' ? item.content : (item.content ?? []).map((c: any) => c.text ?? '').join('') });
      }
      return out;
    }
    case 'anthropic': {
      const out: MessageView[] = body.system ? [{ role: 'system', text: text(body.system) }] : [];
      for (const m of body.messages ?? []) {
        const blocks: any[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
        // Keep block order: text and tool_use gather into one message, each tool_result is its own.
        let current: MessageView | null = null;
        for (const b of blocks) {
          if (b.type === 'tool_result') {
            current = null;
            out.push({ role: 'tool', text: text(b.content), answers: b.tool_use_id, ...(b.is_error ? { isError: true } : {}) });
            continue;
          }
          if (b.type !== 'text' && b.type !== 'tool_use') continue;
          if (!current) {
            current = { role: m.role, text: '' };
            out.push(current);
          }
          if (b.type === 'text') current.text += b.text;
          else (current.toolCalls ??= []).push({ name: b.name, arguments: b.input });
        }
      }
      return out;
    }
    case 'gemini': {
      const out: MessageView[] = body.systemInstruction ? [{ role: 'system', text: (body.systemInstruction.parts ?? []).map((p: any) => p.text ?? '').join('') }] : [];
      for (const c of body.contents ?? []) {
        const parts: any[] = c.parts ?? [];
        const plain = parts.filter((p) => typeof p.text === 'string').map((p) => p.text).join('');
        const calls = parts.filter((p) => p.functionCall).map((p) => ({ name: p.functionCall.name, arguments: p.functionCall.args ?? {} }));
        if (plain || calls.length) out.push({ role: c.role === 'model' ? 'assistant' : (c.role ?? 'user'), text: plain, ...(calls.length ? { toolCalls: calls } : {}) });
        for (const p of parts.filter((q) => q.functionResponse)) out.push({ role: 'tool', text: JSON.stringify(p.functionResponse.response), answers: p.functionResponse.name });
      }
      return out;
    }
    default:
      return [];
  }
}

/**
 * The error message of a provider error body, when there is one.
 * @example errorMessage({ error: { message: 'slow down' } }) // 'slow down'
 */
export function errorMessage(body: any): string | null {
  const message = body?.error?.message ?? body?.message;
  return typeof message === 'string' ? message : null;
}
