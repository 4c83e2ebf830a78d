import OpenAI from 'openai';
import type { ScenarioInput } from '../../scenario/schema.ts';

/** A two-turn streamed tool-calling conversation, used by the goldens tests as the upstream's script. */
export const weatherScenario: ScenarioInput = {
  name: 'weather',
  steps: [
    {
      match: { lastMessage: { role: 'user', content: { contains: 'weather' } } },
      respond: {
        text: '',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
        usage: { inputTokens: 20, outputTokens: 8 },
        finishReason: 'tool_calls',
      },
    },
    {
      match: { toolResults: ['get_weather'] },
      respond: { text: 'It is sunny in Paris, 21°C.', usage: { inputTokens: 35, outputTokens: 9 }, stream: { chunkSize: 5 } },
    },
  ],
} as ScenarioInput;

export interface AgentRun {
  answer: string;
  toolCalls: Array<{ name: string; arguments: unknown }>;
  turns: number;
}

/** A tiny agent loop over the official openai SDK: streams each turn and answers tool calls locally. */
export async function runWeatherAgent(client: OpenAI, prompt = 'What is the weather in Paris?'): Promise<AgentRun> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
  const tools: OpenAI.Chat.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ];
  const run: AgentRun = { answer: '', toolCalls: [], turns: 0 };
  for (let turn = 0; turn < 5; turn++) {
    run.turns++;
    const stream = client.chat.completions.stream({ model: 'gpt-4o', messages, tools, stream: true, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0].message;
    messages.push(message as OpenAI.Chat.ChatCompletionMessageParam);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) {
      run.answer = message.content ?? '';
      return run;
    }
    for (const call of calls) {
      if (call.type !== 'function') continue;
      const args = JSON.parse(call.function.arguments) as unknown;
      run.toolCalls.push({ name: call.function.name, arguments: args });
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ sky: 'sunny', celsius: 21 }) });
    }
  }
  return run;
}
