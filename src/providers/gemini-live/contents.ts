/**
 * Gemini Live's `Content` turns (clientContent.turns, toolResponse) read as canonical messages.
 * Shapes: @google/genai's Content / Part / FunctionCall / FunctionResponse types.
 */
import type { CanonicalMessage, CanonicalTool } from '../../scenario/canonical.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One Content as canonical messages: its text, its function calls on an assistant message, each
 * function response as a tool message; inline audio marks a user message as spoken.
 * @example contentToMessages({ role: 'user', parts: [{ text: 'hi' }] }) // [{ role: 'user', content: 'hi' }]
 */
export function contentToMessages(content: unknown): CanonicalMessage[] {
  if (!isObject(content) || !Array.isArray(content.parts)) return [];
  const role = content.role === 'model' ? 'assistant' : 'user';
  const parts = content.parts.filter(isObject);
  const out: CanonicalMessage[] = [];
  const texts = parts.flatMap((p) => (typeof p.text === 'string' ? [p.text] : []));
  const calls = parts.flatMap((p) => (isObject(p.functionCall) ? [p.functionCall] : []));
  const audio = parts.some((p) => isObject(p.inlineData) && String(p.inlineData.mimeType ?? '').startsWith('audio/'));
  if (texts.length > 0 || calls.length > 0 || audio) {
    const message: CanonicalMessage = { role, content: texts.join('\n') };
    if (calls.length > 0 && role === 'assistant') message.toolCalls = calls.map((c) => ({ id: String(c.id ?? ''), name: String(c.name ?? ''), arguments: c.args ?? {} }));
    if (audio && role === 'user') message.audio = true;
    out.push(message);
  }
  for (const p of parts) if (isObject(p.functionResponse)) out.push(responseToMessage(p.functionResponse));
  return out;
}

/**
 * A FunctionResponse (toolResponse.functionResponses[i] or a functionResponse part) as a tool message.
 * @example responseToMessage({ id: 'abc', name: 'get_weather', response: { tempC: 21 } })
 */
export function responseToMessage(response: Json): CanonicalMessage {
  return { role: 'tool', content: JSON.stringify(response.response ?? {}), toolCallId: String(response.id ?? ''), toolName: String(response.name ?? '') };
}

/**
 * The setup's tools: every function declaration of every tool.
 * @example toolsOf([{ functionDeclarations: [{ name: 'f' }] }]) // [{ name: 'f' }]
 */
export function toolsOf(tools: unknown): CanonicalTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter(isObject).flatMap((t) =>
    (Array.isArray(t.functionDeclarations) ? t.functionDeclarations.filter(isObject) : []).map((d) => ({
      name: String(d.name ?? ''),
      description: typeof d.description === 'string' ? d.description : undefined,
      parameters: d.parameters ?? d.parametersJsonSchema,
    })),
  );
}

/** The system instruction's text (a Content, or a string as some clients send). */
export function instructionText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!isObject(value) || !Array.isArray(value.parts)) return '';
  return value.parts.flatMap((p) => (isObject(p) && typeof p.text === 'string' ? [p.text] : [])).join('\n');
}

export { isObject };
