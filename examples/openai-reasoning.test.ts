/**
 * A stateless OpenAI Responses agent on a reasoning model, tested through its tool loop. Without
 * stored state (`store: false`) each `function_call` must go back with the `reasoning` item that led
 * to it, its `encrypted_content` untouched. The mock answers with a reasoning item (a summary, because
 * the request asks for one; encrypted content, because it includes it) and refuses, with the API's
 * 400, the next request of an agent that passes the call back without it.
 */
import OpenAI from 'openai';
import { describe, expect } from 'vitest';
import { openaiResponses, scenario } from 'ghostwire';
import { test, useMockLLM } from 'ghostwire/vitest';

const tools: OpenAI.Responses.FunctionTool[] = [
  { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false },
];

// The code under test. `keepReasoning: false` is the bug: passing back only the calls and their outputs.
async function reasoningAgent(client: OpenAI, question: string, { keepReasoning = true } = {}): Promise<{ answer: string; summaries: string[] }> {
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: question }];
  const summaries: string[] = [];
  for (;;) {
    const response = await client.responses.create({
      model: 'o4-mini',
      input,
      tools,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low', summary: 'auto' },
    });
    for (const item of response.output) if (item.type === 'reasoning') summaries.push(...item.summary.map((s) => s.text));
    const calls = response.output.filter((o) => o.type === 'function_call');
    if (calls.length === 0) return { answer: response.output_text, summaries };
    input.push(...(response.output.filter((o) => keepReasoning || o.type !== 'reasoning') as OpenAI.Responses.ResponseInputItem[]));
    for (const call of calls) input.push({ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify({ tempC: 21 }) });
  }
}

const weather = scenario('weather')
  .expect(openaiResponses())
  .then()
  .respondWithReasoning('The user wants the weather in Paris: call get_weather.')
  .respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
  .expect(openaiResponses())
  .withToolResults(['get_weather'])
  .then()
  .respondWithReasoning('21°C came back; answer in one sentence.')
  .respondWithText('It is 21°C in Paris.')
  .withUsage({ inputTokens: 60, outputTokens: 30, reasoningTokens: 18 });

describe('a stateless Responses agent on a reasoning model', () => {
  test('passes each reasoning item back with its call, and sees the summaries', async () => {
    const mock = useMockLLM(weather);
    const { answer, summaries } = await reasoningAgent(new OpenAI({ apiKey: 'sk-test' }), 'Weather in Paris?');
    expect(answer).toBe('It is 21°C in Paris.');
    expect(summaries).toEqual(['The user wants the weather in Paris: call get_weather.', '21°C came back; answer in one sentence.']);
    mock.assertAllConsumed();
  });

  test('an agent that drops the reasoning item gets the API 400', async () => {
    const mock = useMockLLM(weather);
    const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
    await expect(reasoningAgent(client, 'Weather in Paris?', { keepReasoning: false })).rejects.toThrow(/without its required 'reasoning' item/);
    expect(mock.requests[1].violation?.rule).toBe('openai.function-call-without-reasoning');
  });
});
