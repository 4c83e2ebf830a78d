// Streamed answers recorded through each official SDK replay to the same assembled result, and the
// golden's readable summary (assembled by stream-summary) agrees with what the SDK assembled.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema.ts';
import { recordThrough, replayThrough } from './testing/runtime.ts';
import type { AnswerSummary } from './schema.ts';

const toolScenario = {
  name: 'check-weather',
  steps: [
    {
      respond: {
        text: 'Let me check the weather for you.',
        toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }],
        usage: { inputTokens: 17, outputTokens: 11 },
        finishReason: 'tool_calls',
        stream: { chunkSize: 4 },
      },
      consume: false,
    },
  ],
} as unknown as ScenarioInput;

interface Assembled {
  text: string;
  toolCalls: Array<{ name: string; arguments: unknown }>;
}

const weatherTool = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } } };

const sdks: Record<string, () => Promise<Assembled>> = {
  openai: async () => {
    const client = new OpenAI({ apiKey: 'sk-sdk-test', maxRetries: 0 });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: weatherTool }],
      stream_options: { include_usage: true },
    });
    const message = (await stream.finalChatCompletion()).choices[0].message;
    return {
      text: message.content ?? '',
      toolCalls: (message.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [{ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown }] : [])),
    };
  },
  'openai-responses': async () => {
    const client = new OpenAI({ apiKey: 'sk-sdk-test', maxRetries: 0 });
    const response = await client.responses
      .stream({ model: 'gpt-4o', input: 'Weather in Paris?', tools: [{ type: 'function', name: weatherTool.name, description: weatherTool.description, parameters: weatherTool.parameters, strict: false }] })
      .finalResponse();
    return {
      text: response.output_text,
      toolCalls: response.output.flatMap((o) => (o.type === 'function_call' ? [{ name: o.name, arguments: JSON.parse(o.arguments) as unknown }] : [])),
    };
  },
  anthropic: async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-sdk-test', maxRetries: 0 });
    const message = await client.messages
      .stream({
        model: 'claude-sonnet-5',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema }],
      })
      .finalMessage();
    return {
      text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
      toolCalls: message.content.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, arguments: b.input }] : [])),
    };
  },
  gemini: async () => {
    const client = new GoogleGenAI({ apiKey: 'g-sdk-test-key' });
    const stream = await client.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'Weather in Paris?',
      config: { tools: [{ functionDeclarations: [{ name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters }] }] },
    });
    let text = '';
    const toolCalls: Assembled['toolCalls'] = [];
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.text) text += part.text;
        if (part.functionCall) toolCalls.push({ name: part.functionCall.name ?? '', arguments: part.functionCall.args });
      }
    }
    return { text, toolCalls };
  },
};

describe.each(Object.keys(sdks))('%s SDK: streamed record → replay', (name) => {
  it('replays the recorded events to the same assembled answer, with the upstream stopped', async () => {
    const run = sdks[name];
    const { recorded, golden, root, file } = await recordThrough(toolScenario, 'sdk.test.ts', name, run);
    expect(recorded.text).toBe('Let me check the weather for you.');
    expect(recorded.toolCalls).toEqual([{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }]);

    const [interaction] = golden.interactions;
    expect(interaction.provider).toBe(name);
    expect(interaction.response.events!.length).toBeGreaterThan(4);
    const summary = interaction.summary as AnswerSummary;
    expect({ text: summary.text, toolCalls: summary.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) }).toEqual(recorded);
    expect(interaction.usage).toEqual({ inputTokens: 17, outputTokens: 11 });
    expect(JSON.stringify(golden)).not.toMatch(/sk-sdk-test|sk-ant-sdk-test|g-sdk-test-key/);

    const { replayed, action } = await replayThrough(root, file, name, run);
    expect(replayed).toEqual(recorded);
    expect(action).toBe('replayed');
  });
});
