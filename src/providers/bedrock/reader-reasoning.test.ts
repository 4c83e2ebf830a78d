/**
 * The Bedrock reader (goldens summaries, `ghostwire inspect`) sees the reasoning a Converse answer
 * carried, streamed or not, redacted included; InvokeModel's Claude bodies read as Anthropic's.
 */
import { describe, expect, it } from 'vitest';
import type { CanonicalResponse } from '../../scenario/canonical.ts';
import { StreamSchema } from '../../scenario/schema.ts';
import { bedrockAdapter } from './index.ts';

const adapter = bedrockAdapter();
const state = adapter.createState!();

function request(operation: string, body: object) {
  const url = new URL(`https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/${operation}`);
  return adapter.parse({ method: 'POST', url, path: url.pathname, headers: new Headers({ 'content-type': 'application/json' }), bodyText: JSON.stringify(body) }, state);
}

const response = (reasoning: CanonicalResponse['reasoning']): CanonicalResponse => ({
  id: 'r1',
  model: 'm',
  created: 0,
  text: 'Answer.',
  toolCalls: [],
  reasoning,
  usage: { inputTokens: 3, outputTokens: 9, reasoningTokens: 5 },
  finishReason: 'stop',
  stream: StreamSchema.parse({ chunkSize: 4 }),
  headers: {},
});

const converse = { messages: [{ role: 'user', content: [{ text: 'hi' }] }], additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } } };

describe('Bedrock reader: reasoning', () => {
  it('reads Converse reasoning from the JSON answer and from the event stream, redacted shown as such', () => {
    const json = adapter.render(response({ text: 'Because.', redacted: false }), request('converse', converse), state);
    expect(adapter.reader!.answer(json.json)).toMatchObject({ text: 'Answer.', reasoning: 'Because.' });
    const streamed = adapter.render(response({ text: 'Because, step by step.', redacted: false }), request('converse-stream', converse), state);
    expect(adapter.reader!.streamedAnswer(streamed.stream!.frames)).toMatchObject({ text: 'Answer.', reasoning: 'Because, step by step.' });
    const redacted = adapter.render(response({ text: 'secret', redacted: true }), request('converse-stream', converse), state);
    expect(adapter.reader!.streamedAnswer(redacted.stream!.frames)).toMatchObject({ text: 'Answer.', reasoning: '[redacted thinking]' });
  });

  it("reads InvokeModel's streamed Claude thinking and its token count", () => {
    const body = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] };
    const streamed = adapter.render(response({ text: 'Think.', redacted: false }), request('invoke-with-response-stream', body), state);
    expect(adapter.reader!.streamedAnswer(streamed.stream!.frames)).toMatchObject({ text: 'Answer.', reasoning: 'Think.', usage: { outputTokens: 9, reasoningTokens: 5 } });
  });
});
