/**
 * Reasoning tool loops as users write them with the official SDKs (Anthropic thinking, stateless
 * Responses, Gemini 3 thought signatures), each able to pass its minted value back kept, altered or
 * dropped; and the live mock's answers to the tampered ones. Shared by the goldens' strict replay tests
 * in-process and on the real port.
 */
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI, type Content } from '@google/genai';
import OpenAI from 'openai';
import { expect } from 'vitest';
import type { ScenarioInput } from '../../scenario/schema.ts';

export type Tamper = 'keep' | 'alter' | 'drop';

export const loop: ScenarioInput = {
  name: 'think-loop',
  steps: [
    { respond: { reasoning: 'The user wants the weather: call get_weather.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
    { match: { toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris.' } },
  ],
};

/** The value with one character changed (still base64): what a careless copy or a hand edit does. */
const altered = (value: string): string => `${value[0] === 'A' ? 'B' : 'A'}${value.slice(1)}`;

/** A user's reasoning tool loop against one API: `base` points the client at a server (else the API's host; for OpenAI, the base without `/v1`). */
export interface Loop {
  agent(tamper: Tamper, base?: string): Promise<string>;
  /** The SDK's error as [status, message the API sent]. */
  failure(error: unknown): [number, string];
}

export const LOOPS: Record<'anthropic' | 'openai-responses' | 'gemini', Loop> = {
  anthropic: {
    async agent(tamper, base) {
      const client = new Anthropic({ apiKey: 'sk-ant-strict', maxRetries: 0, ...(base ? { baseURL: base } : {}) });
      const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
      const request = { model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools };
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
      const first = await client.messages.stream({ ...request, messages }).finalMessage();
      const call = first.content.find((b) => b.type === 'tool_use')!;
      const content = first.content.map((b) => {
        if (b.type !== 'thinking' || tamper === 'keep') return b;
        if (tamper === 'alter') return { ...b, signature: altered(b.signature) };
        const { signature: _dropped, ...rest } = b;
        return rest as Anthropic.ThinkingBlock;
      });
      messages.push({ role: 'assistant', content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21' }] });
      const second = await client.messages.create({ ...request, messages });
      return second.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    },
    failure(error) {
      expect(error).toBeInstanceOf(Anthropic.APIError);
      const e = error as InstanceType<typeof Anthropic.APIError>;
      // Anthropic's own error shape, as the SDK keeps it.
      expect(e.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      return [e.status!, (e.error as { error: { message: string } }).error.message];
    },
  },
  'openai-responses': {
    async agent(tamper, base) {
      const client = new OpenAI({ apiKey: 'sk-strict', maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });
      const request = {
        model: 'o4-mini',
        store: false,
        include: ['reasoning.encrypted_content' as const],
        reasoning: { effort: 'low' as const, summary: 'auto' as const },
        tools: [{ type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }],
      };
      const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Paris?' }];
      const first = await client.responses.create({ ...request, input });
      const call = first.output.find((o) => o.type === 'function_call')!;
      const output = first.output.map((o) => {
        if (o.type !== 'reasoning' || tamper === 'keep') return o;
        if (tamper === 'alter') return { ...o, encrypted_content: altered(o.encrypted_content!) };
        const { encrypted_content: _dropped, ...rest } = o;
        return rest;
      });
      input.push(...(output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '21' });
      return (await client.responses.create({ ...request, input })).output_text;
    },
    failure(error) {
      expect(error).toBeInstanceOf(OpenAI.APIError);
      const e = error as InstanceType<typeof OpenAI.APIError>;
      expect(e.type).toBe('invalid_request_error');
      // The API names the item and the content by values each run mints anew.
      const message = (e.error as { message: string }).message.replace(/'rs_\w+'/, "'rs_…'").replace(/\S{4}\.\.\.\S{4} could/, '…  could');
      return [e.status!, message];
    },
  },
  gemini: {
    async agent(tamper, base) {
      const ai = new GoogleGenAI({ apiKey: 'gemini-strict', ...(base ? { httpOptions: { baseUrl: base } } : {}) });
      const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }], thinkingConfig: { includeThoughts: true } };
      const model = 'gemini-3-pro-preview';
      const first = await ai.models.generateContent({ model, contents: 'Weather in Paris?', config });
      const turn = first.candidates![0].content!;
      const parts = turn.parts!.map((p) => {
        if (p.thoughtSignature === undefined || tamper === 'keep') return p;
        if (tamper === 'alter') return { ...p, thoughtSignature: altered(p.thoughtSignature) };
        const { thoughtSignature: _dropped, ...rest } = p;
        return rest;
      });
      const history: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }, { ...turn, parts }, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'sunny' } } }] }];
      return (await ai.models.generateContent({ model, contents: history, config })).text ?? '';
    },
    failure(error) {
      expect(error).toBeInstanceOf(ApiError);
      const e = error as ApiError;
      // The SDK's message is the error body; Google's shape: { error: { code, message, status } }.
      const body = JSON.parse(e.message) as { error: { code: number; message: string; status: string } };
      expect(body.error).toMatchObject({ code: e.status, status: 'INVALID_ARGUMENT' });
      return [e.status, body.error.message];
    },
  },
};

/** The live mock's answers to the tampered loops (each API's own status and words), asserted so a change in the rules shows. */
export const LIVE: Record<keyof typeof LOOPS, Record<'alter' | 'drop', [number, string]>> = {
  anthropic: {
    alter: [400, 'messages.1.content.0: Invalid `signature` in `thinking` block'],
    drop: [400, 'messages.1.content.0.signature: Field required'],
  },
  'openai-responses': {
    alter: [400, 'The encrypted content …  could not be verified.'],
    drop: [404, "Item with id 'rs_…' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input."],
  },
  gemini: {
    alter: [400, 'Corrupted thought signature.'],
    drop: [400, expect.stringMatching(/^Function call is missing a thought_signature in functionCall parts\. .*function call `default_api:get_weather` , position 2\./) as unknown as string],
  },
};
