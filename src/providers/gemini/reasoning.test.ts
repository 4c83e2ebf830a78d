import { ApiError, FunctionCallingConfigMode, GoogleGenAI, type Content, type FunctionDeclaration, type GenerateContentResponse } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockLLM, type MockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { startRig, TRANSPORTS, type SdkRig } from '../testing/sdk-rig.ts';
import { geminiReader } from './reader.ts';

// Thinking as @google/genai sees it: `thought: true` parts (which `response.text` skips), thought
// signatures on function calls (and Gemini 3 answers), `usageMetadata.thoughtsTokenCount`; and the
// Gemini 3 rule that the current turn's function calls come back with their signatures.
const getWeather: FunctionDeclaration = {
  name: 'get_weather',
  parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const tools = [{ functionDeclarations: [getWeather] }];
const thinking = { thinkingConfig: { includeThoughts: true } };

const loop: ScenarioInput = {
  name: 'loop',
  steps: [
    { respond: { reasoning: 'The user wants the weather: call get_weather.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
    { match: { toolResults: ['get_weather'] }, respond: { reasoning: 'It is sunny; say so.', text: 'Sunny in Paris.', usage: { inputTokens: 30, outputTokens: 20, reasoningTokens: 12 } } },
  ],
};

describe.each(TRANSPORTS)('Gemini thinking through @google/genai over %s', (transport) => {
  let rig: SdkRig | undefined;
  const start = async (scenarios: ScenarioInput[]): Promise<{ mock: MockLLM; ai: GoogleGenAI }> => {
    const mock = createMockLLM({ scenarios });
    rig = await startRig(transport, mock);
    return { mock, ai: rig.google };
  };
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('sends thought parts first when includeThoughts is set; response.text skips them; thoughtsTokenCount apart from candidates', async () => {
    const { mock, ai } = await start([loop]);
    const first = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Weather in Paris?', config: { tools, ...thinking } });
    const parts = first.candidates![0].content!.parts!;
    expect(parts[0]).toEqual({ text: 'The user wants the weather: call get_weather.', thought: true });
    expect(parts[1].functionCall).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    // Gemini 2.5 signs a function call it thought about.
    expect(parts[1].thoughtSignature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(first.usageMetadata!.thoughtsTokenCount).toBeGreaterThan(0);
    const history: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }, first.candidates![0].content!, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'sunny' } } }] }];
    const second = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: history, config: { tools, ...thinking } });
    expect(second.text).toBe('Sunny in Paris.');
    expect(second.candidates![0].content!.parts![0]).toEqual({ text: 'It is sunny; say so.', thought: true });
    expect(second.usageMetadata).toMatchObject({ promptTokenCount: 30, candidatesTokenCount: 8, thoughtsTokenCount: 12, totalTokenCount: 50 });
    // The thought parts of the history are not messages; the journal keeps the reasoning each answer carried.
    expect(mock.requests[1].request!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(mock.requests.map((r) => r.reasoning?.text)).toEqual(['The user wants the weather: call get_weather.', 'It is sunny; say so.']);
  });

  it('sends no thought parts without includeThoughts, but still counts the thought tokens', async () => {
    const { ai } = await start([{ name: 'r', steps: [{ respond: { reasoning: 'hidden thoughts', text: 'Answer.' } }] }]);
    const res = await ai.models.generateContent({ model: 'gemini-2.5-pro', contents: 'q' });
    expect(res.candidates![0].content!.parts).toEqual([{ text: 'Answer.' }]);
    expect(res.usageMetadata!.thoughtsTokenCount).toBeGreaterThan(0);
  });

  it('thinkingBudget 0 turns thinking off: no thoughts, no signature, no thought tokens', async () => {
    const { ai } = await start([loop]);
    const res = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'q', config: { tools, thinkingConfig: { includeThoughts: true, thinkingBudget: 0 } } });
    expect(res.candidates![0].content!.parts).toEqual([{ functionCall: expect.objectContaining({ name: 'get_weather' }) }]);
    expect(res.usageMetadata!.thoughtsTokenCount).toBeUndefined();
  });

  it('streams thought chunks before the answer, the signature on the call, thought tokens on every chunk', async () => {
    const { ai } = await start([{ name: 's', steps: [{ respond: { reasoning: 'Thinking about the weather in Oslo.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }], stream: { chunkSize: 10 } } }] }]);
    const stream = await ai.models.generateContentStream({ model: 'gemini-3-flash-preview', contents: 'Oslo?', config: { tools, ...thinking } });
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const parts = chunks.flatMap((c) => c.candidates![0].content!.parts!);
    const thoughts = parts.filter((p) => p.thought);
    expect(thoughts.map((p) => p.text).join('')).toBe('Thinking about the weather in Oslo.');
    expect(thoughts.length).toBeGreaterThan(1);
    const call = parts.find((p) => p.functionCall)!;
    expect(call.thoughtSignature).toBeTruthy();
    expect(parts.indexOf(call)).toBeGreaterThan(parts.indexOf(thoughts.at(-1)!));
    expect(chunks.at(-1)!.usageMetadata!.thoughtsTokenCount).toBeGreaterThan(0);
  });

  it('Gemini 3 signs a text answer on its last part (streamed: the last chunk)', async () => {
    const step = { respond: { text: 'Plain answer here.', stream: { chunkSize: 6 } } };
    const { ai } = await start([{ name: 't', steps: [step, step] }]);
    const whole = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'q' });
    expect(whole.candidates![0].content!.parts).toEqual([{ text: 'Plain answer here.', thoughtSignature: expect.any(String) }]);
    const stream = await ai.models.generateContentStream({ model: 'gemini-3-pro-preview', contents: 'q' });
    const signed: boolean[] = [];
    for await (const chunk of stream) signed.push(Boolean(chunk.candidates![0].content!.parts![0].thoughtSignature));
    expect(signed.at(-1)).toBe(true);
    expect(signed.slice(0, -1).every((s) => !s)).toBe(true);
  });
});

describe('Gemini 3 thought-signature rule (Gemini API)', () => {
  let rig: SdkRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });
  /** A Gemini 3 tool loop's second request, with its model turn as `edit` leaves it. */
  async function secondTurn(model: string, edit: (turn: Content) => Content, options: { rules?: boolean; scenarioRules?: boolean } = {}) {
    const scenario: ScenarioInput = { ...loop, ...(options.scenarioRules === false ? { protocolRules: false } : {}) };
    const mock = createMockLLM({ scenarios: [scenario], ...(options.rules === false ? { protocolRules: false } : {}) });
    rig = await startRig('msw', mock);
    const ai = rig.google;
    const first = await ai.models.generateContent({ model, contents: 'Weather in Paris?', config: { tools } });
    const turn = edit(structuredClone(first.candidates![0].content!));
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }, turn, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'sunny' } } }] }];
    const result = await ai.models.generateContent({ model, contents, config: { tools } }).then(
      (r) => ({ ok: true as const, text: r.text }),
      (e: unknown) => ({ ok: false as const, error: e }),
    );
    return { mock, first, result };
  }
  const dropSignature = (turn: Content): Content => ({ ...turn, parts: turn.parts!.map(({ thoughtSignature: _dropped, ...rest }) => rest) });
  const withSignature = (signature: string) => (turn: Content): Content => ({ ...turn, parts: turn.parts!.map((p) => (p.functionCall ? { ...p, thoughtSignature: signature } : p)) });

  it('accepts the signature passed back as received', async () => {
    const { first, result } = await secondTurn('gemini-3-pro-preview', (t) => t);
    expect(first.candidates![0].content!.parts![0].thoughtSignature).toBeTruthy();
    expect(result).toEqual({ ok: true, text: 'Sunny in Paris.' });
  });

  it('refuses a current-turn function call without its signature: 400 INVALID_ARGUMENT, naming the call and its position', async () => {
    const { mock, result } = await secondTurn('gemini-3-pro-preview', dropSignature);
    expect(result.ok).toBe(false);
    const error = (result as { error: unknown }).error as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.message).toContain(
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    );
    expect(error.message).toContain('INVALID_ARGUMENT');
    expect(mock.requests[1]).toMatchObject({ status: 400, violation: { rule: 'gemini.function-call-without-thought-signature', doc: 'https://ai.google.dev/gemini-api/docs/thought-signatures' } });
    expect(mock.unconsumed()).toHaveLength(1);
  });

  it.each(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go'])('accepts the documented dummy signature %s', async (dummy) => {
    const { result } = await secondTurn('gemini-3-flash-preview', withSignature(dummy));
    expect(result).toEqual({ ok: true, text: 'Sunny in Paris.' });
  });

  it('refuses an altered or made-up signature as Google does: "Corrupted thought signature."', async () => {
    const flip = (turn: Content): Content => {
      const sig = Buffer.from(turn.parts![0].thoughtSignature!, 'base64');
      sig[sig.length - 1] ^= 1;
      return withSignature(sig.toString('base64'))(turn);
    };
    for (const edit of [flip, withSignature('c2lnbmF0dXJl')]) {
      const { mock, result } = await secondTurn('gemini-3-pro-preview', edit);
      expect(((result as { error: unknown }).error as ApiError).message).toContain('Corrupted thought signature.');
      expect(mock.requests[1].violation?.rule).toBe('gemini.corrupted-thought-signature');
      await rig?.close();
      rig = undefined;
    }
  });

  it('does not apply to Gemini 2.5 (no signature needed there)', async () => {
    const { result } = await secondTurn('gemini-2.5-flash', dropSignature);
    expect(result).toEqual({ ok: true, text: 'Sunny in Paris.' });
  });

  it('does not validate earlier turns: a previous turn may have lost its signatures', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'x', steps: [{ respond: { text: 'Done.' } }] }] });
    rig = await startRig('msw', mock);
    const contents: Content[] = [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'sunny' } } }] },
      { role: 'model', parts: [{ text: 'Sunny.' }] },
      { role: 'user', parts: [{ text: 'Thanks!' }] },
    ];
    const res = await rig.google.models.generateContent({ model: 'gemini-3-pro-preview', contents, config: { tools } });
    expect(res.text).toBe('Done.');
  });

  it('checks only the first function call of a parallel step, as Gemini 3 signs only that one', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'p', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'A' } }, { name: 'get_weather', arguments: { city: 'B' } }] } }, { respond: { text: 'Both sunny.' } }] }] });
    rig = await startRig('msw', mock);
    const ai = rig.google;
    const first = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'A and B?', config: { tools } });
    const [a, b] = first.candidates![0].content!.parts!;
    expect(a.thoughtSignature).toBeTruthy();
    expect(b.thoughtSignature).toBeUndefined();
    const answers = first.functionCalls!.map((c) => ({ functionResponse: { id: c.id, name: c.name!, response: { sky: 'sunny' } } }));
    const res = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: [{ role: 'user', parts: [{ text: 'A and B?' }] }, first.candidates![0].content!, { role: 'user', parts: answers }], config: { tools } });
    expect(res.text).toBe('Both sunny.');
  });

  it('answers anyway when the mock or a scenario turns the rules off', async () => {
    expect((await secondTurn('gemini-3-pro-preview', dropSignature, { rules: false })).result).toEqual({ ok: true, text: 'Sunny in Paris.' });
    await rig?.close();
    rig = undefined;
    expect((await secondTurn('gemini-3-pro-preview', dropSignature, { scenarioRules: false })).result).toEqual({ ok: true, text: 'Sunny in Paris.' });
  });

  it('the chat helper (AUTO mode) passes the signature back itself', async () => {
    const mock = createMockLLM({ scenarios: [loop] });
    rig = await startRig('msw', mock);
    const chat = rig.google.chats.create({ model: 'gemini-3-pro-preview', config: { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } } } });
    const first = await chat.sendMessage({ message: 'Weather in Paris?' });
    expect(first.functionCalls![0].name).toBe('get_weather');
    const second = await chat.sendMessage({ message: [{ functionResponse: { name: 'get_weather', response: { sky: 'sunny' } } }] });
    expect(second.text).toBe('Sunny in Paris.');
    expect(mock.requests.map((r) => r.status)).toEqual([200, 200]);
  });
});

describe('Gemini reader', () => {
  it('reads thoughts as reasoning and counts thought tokens in the output', () => {
    const body = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'hmm', thought: true }, { text: 'Answer', thoughtSignature: 'x' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, thoughtsTokenCount: 5, totalTokenCount: 10 },
    };
    expect(geminiReader.answer(body)).toEqual({ text: 'Answer', toolCalls: [], finishReason: 'STOP', usage: { inputTokens: 3, outputTokens: 7, reasoningTokens: 5 }, reasoning: 'hmm' });
    const frames = [body, body].map((b) => `data: ${JSON.stringify(b)}\n\n`);
    expect(geminiReader.streamedAnswer!(frames)).toMatchObject({ text: 'AnswerAnswer', reasoning: 'hmmhmm' });
  });
});
