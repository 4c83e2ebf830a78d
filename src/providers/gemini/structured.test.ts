import { ApiError, FunctionCallingConfigMode, GoogleGenAI, Type } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';
import { startRig, TRANSPORTS, type SdkRig } from '../testing/sdk-rig.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';
import { openApiToJsonSchema } from './schema.ts';

// Structured outputs as @google/genai asks for them: `responseMimeType: 'application/json'` with
// `responseJsonSchema` (JSON Schema) or `responseSchema` (Google's OpenAPI subset), and a forced
// function call (`mode: ANY`). The scripted object is checked against the schema the code sends.
const recipe = {
  type: 'object',
  properties: { name: { type: 'string' }, minutes: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string', enum: ['quick', 'vegan'] } } },
  required: ['name', 'minutes'],
};
const recipeOpenApi = {
  type: Type.OBJECT,
  properties: { name: { type: Type.STRING }, minutes: { type: Type.INTEGER, nullable: true }, tags: { type: Type.ARRAY, items: { type: Type.STRING, format: 'enum', enum: ['quick', 'vegan'] }, maxItems: '3' } },
  required: ['name', 'minutes'],
  propertyOrdering: ['name', 'minutes', 'tags'],
};

describe.each(TRANSPORTS)('Gemini structured outputs through @google/genai over %s', (transport) => {
  let rig: SdkRig | undefined;
  const start = async (scenarios: ScenarioInput[]) => {
    const mock = createMockLLM({ scenarios });
    rig = await startRig(transport, mock);
    return { mock, ai: rig.google };
  };
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('answers responseJsonSchema with the scripted object as the JSON text, streamed too; matches on responseFormat', async () => {
    const value = { name: 'Pancakes', minutes: 20, tags: ['quick'] };
    const { mock, ai } = await start([
      {
        name: 'r',
        steps: [
          { match: { responseFormat: true }, respond: { json: value } },
          { match: { responseFormat: true }, respond: { json: value, stream: { chunkSize: 8 } } },
          { respond: { text: 'free text' } },
        ],
      },
    ]);
    const config = { responseMimeType: 'application/json', responseJsonSchema: recipe };
    const res = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'A recipe', config });
    expect(JSON.parse(res.text!)).toEqual(value);
    expect(mock.requests[0].request!.responseFormat).toEqual({ name: null, schema: recipe });
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'A recipe', config })) text += chunk.text ?? '';
    expect(JSON.parse(text)).toEqual(value);
    // A request without a format skips the structured steps' match.
    expect((await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'chat' })).text).toBe('free text');
  });

  it('converts responseSchema (OpenAPI subset) to JSON Schema and checks against it: a mismatch is an authoring error naming the path', async () => {
    const { mock, ai } = await start([{ name: 'bad', steps: [{ respond: { json: { name: 'Soup', minutes: 'ten' } } }] }]);
    const err = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'A recipe', config: { responseMimeType: 'application/json', responseSchema: recipeOpenApi } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).message).toContain('bad#0: respond.json.minutes: must be integer,null');
    expect(mock.requests[0].request!.responseFormat!.schema).toMatchObject({ type: 'object', properties: { minutes: { type: ['integer', 'null'] }, tags: { maxItems: 3 } } });
  });

  it('generates an instance of the request schema for $generate, the same for the same seed', async () => {
    const { ai } = await start([{ name: 'g', steps: [{ respond: { json: { $generate: true, seed: 7 } } }, { respond: { json: { $generate: true, seed: 7 } } }] }]);
    const config = { responseMimeType: 'application/json', responseSchema: recipeOpenApi };
    const a = JSON.parse((await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x', config })).text!);
    const b = JSON.parse((await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x', config })).text!);
    expect(typeof a.name).toBe('string');
    expect(a).toEqual(b);
  });

  it('JSON mode without a schema takes any value; $generate there is an authoring error', async () => {
    const { ai } = await start([{ name: 'j', steps: [{ respond: { json: [1, 'two'] } }, { respond: { json: { $generate: true } } }] }]);
    const config = { responseMimeType: 'application/json' };
    expect(JSON.parse((await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x', config })).text!)).toEqual([1, 'two']);
    const err = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x', config }).catch((e: unknown) => e);
    expect((err as ApiError).message).toContain('respond.json.$generate needs a request that sends a JSON Schema');
  });

  it('mode ANY with one allowed function forces it: the object becomes that call, checked against its (OpenAPI) parameters', async () => {
    const { mock, ai } = await start([{ name: 'f', steps: [{ respond: { json: { city: 'Rome' } } }, { respond: { toolCalls: [{ name: 'get_weather', arguments: { town: 'Rome' } }] } }] }]);
    const config = {
      tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] } }, { name: 'other' }] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ['get_weather'] } },
    };
    const res = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Rome?', config });
    expect(res.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Rome' } })]);
    expect(mock.requests[0].request).toMatchObject({ forcedTool: 'get_weather', tools: [{ name: 'get_weather', strict: true }, { name: 'other', strict: true }] });
    // ANY mode guarantees schema adherence, so a scripted call that does not fit is the scenario's mistake.
    const err = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Rome?', config }).catch((e: unknown) => e);
    expect((err as ApiError).message).toContain('f#1: respond.toolCalls[0].arguments.city: is required by the schema');
  });

  it('a scripted refusal is the answer text (Gemini has no refusal field)', async () => {
    const { ai } = await start([{ name: 'no', steps: [{ respond: { refusal: 'I cannot help with that.' } }] }]);
    expect((await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' })).text).toBe('I cannot help with that.');
  });
});

describe('Gemini on Vertex: structured outputs and the signature rule in Vertex wording', () => {
  it('answers responseJsonSchema, and refuses a Gemini 3 call without its signature with Vertex message', async () => {
    const mock = createMockLLM({
      scenarios: [{ name: 'v', steps: [{ respond: { json: { ok: true } } }, { respond: { toolCalls: [{ name: 'lookup', arguments: {} }] } }, { respond: { text: 'never' } }] }],
    });
    const { fetch } = capturingFetch(mock.handle);
    const ai = new GoogleGenAI({ vertexai: true, project: 'p', location: 'us-central1', googleAuthOptions: { authClient: staticTokenClient() }, httpOptions: { fetch } });
    const res = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'x', config: { responseMimeType: 'application/json', responseJsonSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } });
    expect(JSON.parse(res.text!)).toEqual({ ok: true });
    const tools = [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: { type: 'object' } }] }];
    const first = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'look', config: { tools } });
    expect(first.candidates![0].content!.parts![0].thoughtSignature).toBeTruthy();
    const { thoughtSignature: _dropped, ...unsigned } = first.candidates![0].content!.parts![0];
    const err = await ai.models
      .generateContent({ model: 'gemini-3-pro-preview', contents: [{ role: 'user', parts: [{ text: 'look' }] }, { role: 'model', parts: [unsigned] }, { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: {} } }] }], config: { tools } })
      .catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).message).toContain('Unable to submit request because function call `default_api:lookup` in the 2. content block is missing a `thought_signature`.');
    expect(mock.requests[2].violation?.doc).toBe('https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures');
  });
});

describe('openApiToJsonSchema', () => {
  it('lowercases types, turns nullable into a null type, counts into numbers, drops display-only keys', () => {
    expect(openApiToJsonSchema(recipeOpenApi)).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, minutes: { type: ['integer', 'null'] }, tags: { type: 'array', items: { type: 'string', enum: ['quick', 'vegan'] }, maxItems: 3 } },
      required: ['name', 'minutes'],
    });
    expect(openApiToJsonSchema({ anyOf: [{ type: 'STRING' }], nullable: true })).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });
});
