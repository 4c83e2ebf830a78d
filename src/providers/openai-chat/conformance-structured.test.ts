import OpenAI from 'openai';
import { describeStructuredConformance, type SdkReasoning } from '../testing/conformance-structured.ts';
import { openAIChatStructured } from '../testing/kits.ts';

const client = (base: string | undefined) => new OpenAI({ apiKey: 'sk-test', maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });

describeStructuredConformance({
  id: 'openai',
  // OpenAI's own models show no reasoning on Chat; an OpenAI-compatible server's do (`reasoning_content`).
  reasoningModel: 'deepseek-reasoner',
  refusals: true,
  structured: openAIChatStructured(client),
  async reasoning(base, model, prompt, stream): Promise<SdkReasoning> {
    const messages = [{ role: 'user' as const, content: prompt }];
    if (!stream) {
      const completion = await client(base).chat.completions.create({ model, messages });
      const message = completion.choices[0].message as OpenAI.Chat.ChatCompletionMessage & { reasoning_content?: string };
      return { text: message.content ?? '', reasoning: message.reasoning_content ?? null, reasoningTokens: completion.usage?.completion_tokens_details?.reasoning_tokens ?? null };
    }
    const chunks = await client(base).chat.completions.create({ model, messages, stream: true, stream_options: { include_usage: true } });
    const out: SdkReasoning = { text: '', reasoning: null, reasoningTokens: null };
    for await (const chunk of chunks) {
      const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
      out.text += delta?.content ?? '';
      if (delta?.reasoning_content) out.reasoning = (out.reasoning ?? '') + delta.reasoning_content;
      if (chunk.usage) out.reasoningTokens = chunk.usage.completion_tokens_details?.reasoning_tokens ?? null;
    }
    return out;
  },
});
