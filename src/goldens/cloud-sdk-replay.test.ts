// Azure OpenAI, Vertex AI, Mistral and Cohere traffic recorded through their official SDKs (against a mock upstream)
// replays to the same assembled answer with the upstream stopped; credentials never reach the golden.
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { GoogleGenAI } from '@google/genai';
import { Mistral } from '@mistralai/mistralai';
import { HTTPClient } from '@mistralai/mistralai/lib/http.js';
import { CohereClientV2 } from 'cohere-ai';
import { AzureOpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema.ts';
import { staticTokenClient } from '../providers/vertex-shared/test-auth.ts';
import { recordThrough, replayThrough } from './testing/runtime.ts';
import type { AnswerSummary } from './schema.ts';

const scenario: ScenarioInput = {
  name: 'weather',
  steps: [
    {
      respond: {
        text: 'Checking the weather.',
        toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }],
        usage: { inputTokens: 17, outputTokens: 11 },
        stream: { chunkSize: 4 },
      },
      consume: false,
    },
  ],
};

interface Assembled {
  text: string;
  toolCalls: Array<{ name: string; arguments: unknown }>;
}

const parameters = { type: 'object', properties: { city: { type: 'string' } } };
const SECRETS = /azure-golden-key|ya29\.golden-token|mistral-golden-key|cohere-golden-key/;

const sdks: Record<string, () => Promise<Assembled>> = {
  'azure-openai': async () => {
    const client = new AzureOpenAI({ endpoint: 'https://contoso.openai.azure.com', apiKey: 'azure-golden-key', apiVersion: '2024-10-21', maxRetries: 0 });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters } }],
      stream_options: { include_usage: true },
    });
    const message = (await stream.finalChatCompletion()).choices[0].message;
    return {
      text: message.content ?? '',
      toolCalls: (message.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [{ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown }] : [])),
    };
  },
  'vertex-gemini': async () => {
    const client = new GoogleGenAI({ vertexai: true, project: 'ghost-project', location: 'us-central1', googleAuthOptions: { authClient: staticTokenClient('ya29.golden-token') } });
    const stream = await client.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'Weather?',
      config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: parameters }] }] },
    });
    const out: Assembled = { text: '', toolCalls: [] };
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.text) out.text += part.text;
        if (part.functionCall) out.toolCalls.push({ name: part.functionCall.name ?? '', arguments: part.functionCall.args });
      }
    }
    return out;
  },
  'vertex-anthropic': async () => {
    const client = new AnthropicVertex({ region: 'us-east5', projectId: 'ghost-project', authClient: staticTokenClient('ya29.golden-token'), maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'claude-sonnet-4@20250514', max_tokens: 64, messages: [{ role: 'user', content: 'Weather?' }], tools: [{ name: 'get_weather', input_schema: { type: 'object' } }] })
      .finalMessage();
    return {
      text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
      toolCalls: message.content.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, arguments: b.input }] : [])),
    };
  },
  mistral: async () => {
    // The fetch at call time: the golden session's interception is installed after the module loaded.
    const client = new Mistral({ apiKey: 'mistral-golden-key', retryConfig: { strategy: 'none' }, httpClient: new HTTPClient({ fetcher: (input, init) => fetch(input, init) }) });
    const stream = await client.chat.stream({
      model: 'mistral-large-latest',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters } }],
    });
    let text = '';
    const calls = new Map<number, { name: string; arguments: string }>();
    for await (const event of stream) {
      const delta = event.data.choices[0]?.delta;
      if (typeof delta?.content === 'string') text += delta.content;
      for (const call of delta?.toolCalls ?? []) {
        const slot = calls.get(call.index ?? 0) ?? { name: '', arguments: '' };
        slot.name += call.function.name ?? '';
        slot.arguments += typeof call.function.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function.arguments);
        calls.set(call.index ?? 0, slot);
      }
    }
    return { text, toolCalls: [...calls.values()].map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) as unknown })) };
  },
  cohere: async () => {
    const client = new CohereClientV2({ token: 'cohere-golden-key', maxRetries: 0, fetch: (input, init) => fetch(input, init) });
    const stream = await client.chatStream({
      model: 'command-a-03-2025',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters } }],
    });
    // With tool calls, Cohere sends the text as the tool plan.
    let text = '';
    const calls: Array<{ name: string; arguments: string }> = [];
    for await (const event of stream) {
      if (event.type === 'tool-plan-delta') text += event.delta?.message?.toolPlan ?? '';
      if (event.type === 'content-delta') text += event.delta?.message?.content?.text ?? '';
      if (event.type === 'tool-call-start') calls.push({ name: event.delta?.message?.toolCalls?.function?.name ?? '', arguments: event.delta?.message?.toolCalls?.function?.arguments ?? '' });
      if (event.type === 'tool-call-delta') calls[calls.length - 1].arguments += event.delta?.message?.toolCalls?.function?.arguments ?? '';
    }
    return { text, toolCalls: calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) as unknown })) };
  },
};

describe.each(Object.keys(sdks))('%s SDK: streamed record → replay', (name) => {
  it('replays the recorded frames to the same assembled answer, with the upstream stopped', async () => {
    const run = sdks[name];
    const { recorded, golden, root, file } = await recordThrough(scenario, 'cloud.test.ts', name, run);
    expect(recorded).toEqual({ text: 'Checking the weather.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });

    const [interaction] = golden.interactions;
    expect(interaction.provider).toBe(name);
    expect(interaction.response.events!.length).toBeGreaterThan(2);
    const summary = interaction.summary as AnswerSummary;
    expect({ text: summary.text, toolCalls: summary.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) }).toEqual(recorded);
    expect(interaction.usage).toEqual({ inputTokens: 17, outputTokens: 11 });
    expect(JSON.stringify(golden)).not.toMatch(SECRETS);

    const { replayed, action } = await replayThrough(root, file, name, run);
    expect(replayed).toEqual(recorded);
    expect(action).toBe('replayed');
  });
});
