import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { TRANSPORTS, useRig } from '../testing/sdk-rig.ts';

// Reasoning on the Responses API (issue 25) through the openai SDK, as users run reasoning models:
// the reasoning item with its summary and encrypted content, streaming as ResponseStream rebuilds
// it, reasoning tokens, and the tool loops with their protocol rules (stateless with store: false
// and encrypted content, stateful with previous_response_id), each rule rejected and accepted.

type Input = OpenAI.Responses.ResponseInput;
const tools: OpenAI.Responses.FunctionTool[] = [
  { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true },
];
const THOUGHT = 'The user wants the weather.\n\nI should call get_weather for Paris.';

/** A reasoning tool loop: a call after reasoning, then the answer once the result is back. */
const loop = () =>
  scenario('loop')
    .expect()
    .withLastMessage({ role: 'user', content: { contains: 'Paris' } })
    .then()
    .respondWithReasoning(THOUGHT)
    .respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
    .expect()
    .withLastMessage({ role: 'tool', content: { contains: '21' } })
    .then()
    .respondWithText('It is 21°C in Paris.');

const ERROR_DOC = 'https://developers.openai.com/api/docs/guides/reasoning';

describe.each(TRANSPORTS)('OpenAI Responses reasoning over %s', (transport) => {
  const mock = createMockLLM();
  const rig = useRig(transport, mock);

  it('answers a reasoning model with a reasoning item before the message: summary parts when asked, encrypted content, reasoning tokens', async () => {
    mock.use(scenario('think').respondWithReasoning(THOUGHT).respondWithText('Sunny.').withUsage({ inputTokens: 10, outputTokens: 50, reasoningTokens: 45 }));
    const response = await rig.openai.responses.create({ model: 'o4-mini', input: 'Weather?', reasoning: { effort: 'medium', summary: 'auto' } });
    const [reasoning, message] = response.output;
    expect(reasoning.type).toBe('reasoning');
    if (reasoning.type !== 'reasoning') return;
    expect(reasoning.id).toMatch(/^rs_[0-9a-f]{48}$/);
    expect(reasoning.summary).toEqual([
      { type: 'summary_text', text: 'The user wants the weather.' },
      { type: 'summary_text', text: 'I should call get_weather for Paris.' },
    ]);
    expect(typeof reasoning.encrypted_content).toBe('string');
    expect(reasoning.encrypted_content).not.toContain('weather');
    expect(message.type).toBe('message');
    expect(response.output_text).toBe('Sunny.');
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(45);
    expect(mock.requests[0].reasoning).toEqual({ text: THOUGHT, redacted: false });
  });

  it('gives an empty summary when the request asks for none, and none for redacted reasoning', async () => {
    mock.use(scenario('think').respondWithReasoning(THOUGHT).respondWithText('a').expect().then().respondWithReasoning({ text: THOUGHT, redacted: true }).respondWithText('b'));
    const plain = await rig.openai.responses.create({ model: 'gpt-5', input: 'x' });
    const redacted = await rig.openai.responses.create({ model: 'gpt-5', input: 'y', reasoning: { summary: 'detailed' } });
    for (const response of [plain, redacted]) {
      expect(response.output[0]).toMatchObject({ type: 'reasoning', summary: [], encrypted_content: expect.any(String) });
    }
  });

  it('renders no reasoning item for a model that does not reason (gpt-4.1), as the API answers it', async () => {
    mock.use(scenario('think').respondWithReasoning(THOUGHT).respondWithText('Hi.'));
    const response = await rig.openai.responses.create({ model: 'gpt-4.1', input: 'x' });
    expect(response.output.map((o) => o.type)).toEqual(['message']);
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(0);
  });

  it('streams the reasoning summary through responses.stream, event by event, to the same final response', async () => {
    mock.use(scenario('think').respondWithReasoning(THOUGHT).respondWithText('Sunny.').asStream({ chunkSize: 6 }));
    const stream = rig.openai.responses.stream({ model: 'o3', input: 'Weather?', reasoning: { summary: 'auto' } });
    const types: string[] = [];
    const deltas: string[] = [];
    const done: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    stream.on('response.reasoning_summary_text.delta', (e) => deltas.push(e.delta));
    stream.on('response.reasoning_summary_text.done', (e) => done.push(e.text));
    const final = await stream.finalResponse();
    expect(types.slice(0, 8)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
    ]);
    expect(types.filter((t) => t === 'response.reasoning_summary_part.done')).toHaveLength(2);
    expect(deltas.join('')).toBe('The user wants the weather.I should call get_weather for Paris.');
    expect(done).toEqual(['The user wants the weather.', 'I should call get_weather for Paris.']);
    expect(final.output[0]).toMatchObject({ type: 'reasoning', summary: [{ text: 'The user wants the weather.' }, { text: 'I should call get_weather for Paris.' }] });
    expect(final.output_text).toBe('Sunny.');
  });

  it('runs a stateless tool loop (store: false, encrypted content passed back): the reasoning item goes back before its call', async () => {
    mock.use(loop());
    const first = await rig.openai.responses.create({ model: 'o4-mini', store: false, include: ['reasoning.encrypted_content'], input: 'Weather in Paris?', tools });
    expect(first.output.map((o) => o.type)).toEqual(['reasoning', 'function_call']);
    const fc = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    const input: Input = [{ role: 'user', content: 'Weather in Paris?' }, ...(first.output as Input), { type: 'function_call_output', call_id: fc.call_id, output: '21C' }];
    const second = await rig.openai.responses.create({ model: 'o4-mini', store: false, include: ['reasoning.encrypted_content'], input, tools });
    expect(second.output_text).toBe('It is 21°C in Paris.');
    mock.assertAllConsumed();
  });

  it('runs the stateless loop streaming, passing back the items of output_item.done', async () => {
    mock.use(loop());
    const first = await rig.openai.responses.stream({ model: 'o4-mini', store: false, include: ['reasoning.encrypted_content'], input: 'Weather in Paris?', tools }).finalResponse();
    const fc = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    const input: Input = [{ role: 'user', content: 'Weather in Paris?' }, ...(first.output as Input), { type: 'function_call_output', call_id: fc.call_id, output: '21C' }];
    const second = await rig.openai.responses.stream({ model: 'o4-mini', store: false, input, tools }).finalResponse();
    expect(second.output_text).toBe('It is 21°C in Paris.');
  });

  it('refuses a function_call passed back without its reasoning item (rule openai.function-call-without-reasoning)', async () => {
    mock.use(loop());
    const first = await rig.openai.responses.create({ model: 'o4-mini', store: false, input: 'Weather in Paris?', tools });
    const [rs, fc] = first.output as [OpenAI.Responses.ResponseReasoningItem, OpenAI.Responses.ResponseFunctionToolCall];
    const input: Input = [{ role: 'user', content: 'Weather in Paris?' }, fc, { type: 'function_call_output', call_id: fc.call_id, output: '21C' }];
    const err = await rig.openai.responses.create({ model: 'o4-mini', store: false, input, tools }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toBe(`400 Item '${fc.id}' of type 'function_call' was provided without its required 'reasoning' item: '${rs.id}'.`);
    expect(err.error).toMatchObject({ type: 'invalid_request_error', param: 'input', code: null });
    expect(mock.requests[1].violation).toEqual({ rule: 'openai.function-call-without-reasoning', doc: ERROR_DOC });
    // The step was not consumed: the same loop goes on once the reasoning item is back.
    const ok = await rig.openai.responses.create({ model: 'o4-mini', store: false, input: [input[0], rs, ...input.slice(1)], tools });
    expect(ok.output_text).toBe('It is 21°C in Paris.');
  });

  it('refuses items passed back by hand without previous_response_id even when stored, and accepts previous_response_id (rule stays off there)', async () => {
    mock.use(loop());
    const first = await rig.openai.responses.create({ model: 'gpt-5-mini', input: 'Weather in Paris?', tools });
    const fc = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    const result: Input = [{ type: 'function_call_output', call_id: fc.call_id, output: '21C' }];
    const err = await rig.openai.responses.create({ model: 'gpt-5-mini', input: [{ role: 'user', content: 'Weather in Paris?' }, fc, ...result], tools }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toContain("of type 'function_call' was provided without its required 'reasoning' item");
    const second = await rig.openai.responses.create({ model: 'gpt-5-mini', previous_response_id: first.id, input: result, tools });
    expect(second.output_text).toBe('It is 21°C in Paris.');
  });

  it('refuses encrypted content this mock did not mint or that was altered (rule openai.reasoning-encrypted-content-altered)', async () => {
    mock.use(loop());
    const first = await rig.openai.responses.create({ model: 'o4-mini', store: false, include: ['reasoning.encrypted_content'], input: 'Weather in Paris?', tools });
    const [rs, fc] = first.output as [OpenAI.Responses.ResponseReasoningItem, OpenAI.Responses.ResponseFunctionToolCall];
    const sealed = rs.encrypted_content!;
    const altered = sealed.slice(0, 20) + (sealed[20] === 'A' ? 'B' : 'A') + sealed.slice(21);
    const input = (content: string): Input => [
      { role: 'user', content: 'Weather in Paris?' },
      { ...rs, encrypted_content: content },
      fc,
      { type: 'function_call_output', call_id: fc.call_id, output: '21C' },
    ];
    const err = await rig.openai.responses.create({ model: 'o4-mini', store: false, input: input(altered), tools }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toBe(`400 The encrypted content ${altered.slice(0, 4)}...${altered.slice(-4)} could not be verified.`);
    expect(err.error).toMatchObject({ type: 'invalid_request_error', param: null, code: 'invalid_encrypted_content' });
    const ok = await rig.openai.responses.create({ model: 'o4-mini', store: false, input: input(sealed), tools });
    expect(ok.output_text).toBe('It is 21°C in Paris.');
  });

  it('answers 404 for a reasoning item of an unstored response passed back by id alone (rule openai.reasoning-item-not-stored)', async () => {
    mock.use(loop());
    const first = await rig.openai.responses.create({ model: 'o4-mini', store: false, input: 'Weather in Paris?', tools });
    const [rs, fc] = first.output as [OpenAI.Responses.ResponseReasoningItem, OpenAI.Responses.ResponseFunctionToolCall];
    const { encrypted_content: _dropped, ...bare } = rs;
    const input: Input = [{ role: 'user', content: 'Weather in Paris?' }, bare, fc, { type: 'function_call_output', call_id: fc.call_id, output: '21C' }];
    const err = await rig.openai.responses.create({ model: 'o4-mini', store: false, input, tools }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.message).toBe(
      `404 Item with id '${rs.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
    );
    expect(mock.requests[1].violation?.rule).toBe('openai.reasoning-item-not-stored');
  });

  it('accepts a stored reasoning item passed back by id alone (store on), and refuses one without the item that followed it', async () => {
    mock.use(loop());
    const first = await rig.openai.responses.create({ model: 'o4-mini', input: 'Weather in Paris?', tools });
    const [rs, fc] = first.output as [OpenAI.Responses.ResponseReasoningItem, OpenAI.Responses.ResponseFunctionToolCall];
    const { encrypted_content: _dropped, ...bare } = rs;
    const result: OpenAI.Responses.ResponseInputItem = { type: 'function_call_output', call_id: fc.call_id, output: '21C' };
    const err = await rig.openai.responses.create({ model: 'o4-mini', input: [{ role: 'user', content: 'Weather in Paris?' }, bare, result], tools }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toBe(`400 Item '${rs.id}' of type 'reasoning' was provided without its required following item.`);
    expect(mock.requests[1].violation?.rule).toBe('openai.reasoning-without-following-item');
    const ok = await rig.openai.responses.create({ model: 'o4-mini', input: [{ role: 'user', content: 'Weather in Paris?' }, bare, fc, result], tools });
    expect(ok.output_text).toBe('It is 21°C in Paris.');
  });

  it('answers a loop that breaks the rules when a scenario turns them off', async () => {
    mock.use(loop().protocolRules(false));
    const first = await rig.openai.responses.create({ model: 'o4-mini', store: false, input: 'Weather in Paris?', tools });
    const fc = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await rig.openai.responses.create({
      model: 'o4-mini',
      store: false,
      input: [{ role: 'user', content: 'Weather in Paris?' }, fc, { type: 'function_call_output', call_id: fc.call_id, output: '21C' }],
      tools,
    });
    expect(second.output_text).toBe('It is 21°C in Paris.');
  });
});
