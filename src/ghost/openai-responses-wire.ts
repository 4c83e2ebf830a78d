// The ghost's turns on OpenAI's Responses API, used when reasoning is on: stateless (`store: false`),
// so every reasoning item goes back with its `encrypted_content` beside the function calls it led to,
// as OpenAI requires of a reasoning model's tool loop without stored state.
import type { FunctionTool, Response, ResponseCreateParamsNonStreaming, ResponseInputItem } from 'openai/resources/responses/responses';
import { finishReasonFrom, keptItems, parseArguments, type Completion, type CompletionFinishReason, type GhostMessage, type GhostToolCall, type NativeTurn, type ProviderTool, type ReasoningOptions } from './provider.ts';
import { normalizeSchema, strictCompatible } from './schema-normalize.ts';

/**
 * Responses `instructions` and input items from the ghost's messages; an assistant turn that carried
 * reasoning goes back as its own items (reasoning with encrypted content, then its calls).
 * @example
 *   const { instructions, input } = toResponsesInput([{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'hi' }]);
 */
export function toResponsesInput(messages: readonly GhostMessage[]): { instructions: string; input: ResponseInputItem[] } {
  const system: string[] = [];
  const input: ResponseInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') input.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') input.push({ type: 'function_call_output', call_id: m.toolCallId ?? '', output: m.content });
    else {
      const native = passedBack(m);
      if (native.length > 0) input.push(...native);
      else {
        if (m.content) input.push({ role: 'assistant', content: m.content });
        for (const c of m.toolCalls ?? []) input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.rawArguments || JSON.stringify(c.arguments) });
      }
    }
  }
  return { instructions: system.join('\n\n'), input };
}

/**
 * A turn's items as they go back: without the calls the loop did not run, and without reasoning left
 * with nothing after it (the API refuses a reasoning item without its following item).
 */
function passedBack(m: GhostMessage): ResponseInputItem[] {
  if (m.native?.provider !== 'openai' && m.native?.provider !== 'azure-openai') return [];
  const items = keptItems(m.native.items, m.toolCalls, (i) => ((i as ResponseInputItem).type === 'function_call' ? (i as { call_id: string }).call_id : undefined)) as ResponseInputItem[];
  while (items.length > 0 && items[items.length - 1].type === 'reasoning') items.pop();
  return items;
}

/**
 * Function tools in Responses' flat shape (`strict` where asked and the schema allows it).
 * @example responsesTools([{ name: 'query', description: 'Run SQL', parameters: { type: 'object' } }], false)
 */
export function responsesTools(tools: readonly ProviderTool[], strict: boolean): FunctionTool[] {
  return tools.map((t) => {
    const on = strict && strictCompatible(t.parameters);
    return { type: 'function', name: t.name, description: t.description, parameters: normalizeSchema(t.parameters, 'openai', { strict: on }) as Record<string, unknown>, strict: on };
  });
}

/**
 * The request body of one reasoning turn: effort and a summary asked, encrypted reasoning included, nothing stored.
 * @example responsesBody('o4-mini', messages, tools, { effort: 'low' }, { strict: false })
 */
export function responsesBody(
  model: string,
  messages: readonly GhostMessage[],
  tools: readonly ProviderTool[],
  reasoning: ReasoningOptions,
  options: { strict: boolean; maxTokens?: number },
): ResponseCreateParamsNonStreaming {
  const { instructions, input } = toResponsesInput(messages);
  return {
    model,
    input,
    ...(instructions ? { instructions } : {}),
    ...(tools.length ? { tools: responsesTools(tools, options.strict) } : {}),
    // Reasoning models take no temperature; the effort and a readable summary are what can be asked.
    reasoning: { effort: reasoning.effort ?? 'medium', summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    ...(options.maxTokens !== undefined ? { max_output_tokens: options.maxTokens } : {}),
  };
}

const INCOMPLETE: Readonly<Record<string, CompletionFinishReason>> = { max_output_tokens: 'length', content_filter: 'content_filter' };

/**
 * A Responses answer as the ghost's completion: text, calls, the reasoning summary, and the items to pass back.
 * @example fromResponse(response, 'openai', 0).native?.items[0] // { type: 'reasoning', id: 'rs_…', summary: […], encrypted_content: '…' }
 */
export function fromResponse(response: Response, provider: NativeTurn['provider'], retries: number): Completion {
  const toolCalls: GhostToolCall[] = [];
  const items: ResponseInputItem[] = [];
  const summaries: string[] = [];
  let text = '';
  for (const item of response.output) {
    if (item.type === 'reasoning') {
      summaries.push(...item.summary.map((s) => s.text));
      items.push({ type: 'reasoning', id: item.id, summary: item.summary, ...(item.encrypted_content ? { encrypted_content: item.encrypted_content } : {}) });
    } else if (item.type === 'message') {
      const said = item.content.flatMap((c) => (c.type === 'output_text' ? [c.text] : [])).join('');
      text += said;
      if (said) items.push({ role: 'assistant', content: said });
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id, name: item.name, ...parseArguments(item.arguments) });
      // With its id, as it came: the API then knows (and checks) the reasoning item it belongs to.
      items.push({ type: 'function_call', ...(item.id ? { id: item.id } : {}), call_id: item.call_id, name: item.name, arguments: item.arguments });
    }
  }
  const u = response.usage;
  const reasoning = summaries.join('\n');
  const incomplete = response.status === 'incomplete' ? finishReasonFrom(INCOMPLETE, response.incomplete_details?.reason) : null;
  return {
    text,
    ...(reasoning ? { reasoning } : {}),
    ...(response.output.some((o) => o.type === 'reasoning') ? { native: { provider, items } } : {}),
    toolCalls,
    usage: { promptTokens: u?.input_tokens ?? 0, completionTokens: u?.output_tokens ?? 0, totalTokens: u?.total_tokens ?? (u?.input_tokens ?? 0) + (u?.output_tokens ?? 0) },
    finishReason: incomplete ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    model: response.model,
    retries,
  };
}
