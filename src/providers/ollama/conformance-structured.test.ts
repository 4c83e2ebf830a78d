import { Ollama, type ChatResponse } from 'ollama';
import { describeStructuredConformance, WEATHER_SCHEMA } from '../testing/conformance-structured.ts';

const client = (base: string | undefined) => new Ollama({ host: base ?? 'http://127.0.0.1:11434' });

/** The answer's content and thinking, from one response or the stream's lines. */
async function collect(parts: ChatResponse[] | AsyncIterable<ChatResponse>) {
  const all: ChatResponse[] = [];
  for await (const part of parts as AsyncIterable<ChatResponse>) all.push(part);
  const thinking = all.map((p) => p.message.thinking ?? '').join('');
  return { text: all.map((p) => p.message.content).join(''), thinking: thinking || null };
}

describeStructuredConformance({
  id: 'ollama',
  reasoningModel: 'qwen3',
  refusals: false,
  // eval_count counts thinking and answer together; Ollama reports no reasoning count apart.
  reasoningTokens: false,
  async structured(base, prompt, stream) {
    const body = { model: 'llama3.2', messages: [{ role: 'user', content: prompt }], format: WEATHER_SCHEMA };
    const { text } = await collect(stream ? await client(base).chat({ ...body, stream: true }) : [await client(base).chat({ ...body, stream: false })]);
    return { value: JSON.parse(text), refusal: null };
  },
  async reasoning(base, model, prompt, stream) {
    const body = { model, messages: [{ role: 'user', content: prompt }], think: true };
    const { text, thinking } = await collect(stream ? await client(base).chat({ ...body, stream: true }) : [await client(base).chat({ ...body, stream: false })]);
    return { text, reasoning: thinking, reasoningTokens: null };
  },
});
