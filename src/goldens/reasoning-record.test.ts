// Reasoning tool loops (Anthropic thinking, stateless Responses) recorded through the official SDKs from
// a mock LLM upstream (whose signatures and encrypted content are real, of its own key), then replayed
// with the upstream gone: the SDK gets the same reasoning back, the golden's summaries and `inspect`
// show it, and a second recording (another server, another key: every signature differs) does not
// drift, while a replay of the first refuses the second's values (it never served them).
import Anthropic from '@anthropic-ai/sdk';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { anthropic, openaiResponses, scenario, type MatchLike } from '../scenario/builder.ts';
import { startMockLLMServer } from '../transports/server.ts';
import { inspectGolden } from './inspect.ts';
import { Redactor } from './redact.ts';
import { Replayer } from './replayer.ts';
import { GoldenMismatchError } from './errors.ts';
import { readGolden } from './store.ts';
import { tempRuntime } from './testing/runtime.ts';

const FIRST = 'Paris is asked: call the weather tool.';

/** A user's reasoning tool loop: the first turn's reasoning (as the SDK types it), and the answer. */
interface Loop {
  on: (extra?: MatchLike) => MatchLike;
  agent: () => Promise<{ answer: string; reasoning: { text: string; sealed: string } }>;
}

const anthropicTools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];

const LOOPS: Record<'anthropic' | 'openai-responses', Loop> = {
  // Streamed; the assistant turn goes back whole (the signed thinking first).
  anthropic: {
    on: anthropic,
    async agent() {
      const client = new Anthropic({ apiKey: 'sk-ant-record-test', maxRetries: 0 });
      const request = { model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: anthropicTools };
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
      const first = await client.messages.stream({ ...request, messages }).finalMessage();
      const call = first.content.find((b) => b.type === 'tool_use')!;
      messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21' }] });
      const second = await client.messages.stream({ ...request, messages }).finalMessage();
      const thinking = first.content[0] as Anthropic.ThinkingBlock;
      return { answer: second.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''), reasoning: { text: thinking.thinking, sealed: thinking.signature } };
    },
  },
  // Stateless (store: false): the reasoning item goes back with its encrypted content beside the call.
  'openai-responses': {
    on: openaiResponses,
    async agent() {
      const client = new OpenAI({ apiKey: 'sk-record-test', maxRetries: 0 });
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
      input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '21' });
      const second = await client.responses.create({ ...request, input });
      const reasoning = first.output.find((o) => o.type === 'reasoning')!;
      return { answer: second.output_text, reasoning: { text: reasoning.summary.map((s) => s.text).join(''), sealed: reasoning.encrypted_content ?? '' } };
    },
  },
};

const loopScenario = (on: Loop['on']) =>
  scenario('think-loop')
    .expect(on()).then().respondWithReasoning(FIRST).respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
    .expect(on()).withToolResults(['get_weather']).then().respondWithText('It is 21°C in Paris.');

async function record(loop: Loop, root?: string) {
  const server = await startMockLLMServer({ scenarios: [loopScenario(loop.on)] });
  const { runtime, root: dir } = tempRuntime('record', {}, root);
  const file = join(dir, 'agent.test.ts');
  try {
    const session = runtime.session(file, 'thinks');
    session.setUpstream(server.url);
    await session.intercept();
    const result = await loop.agent();
    const outcome = await runtime.finish(file, 'thinks', true);
    // Read back from disk: the session's own copy is the golden it found before recording.
    return { result, outcome, golden: (await readGolden(session.file))!, root: dir, file };
  } finally {
    await server.close();
  }
}

describe.each(Object.keys(LOOPS) as Array<keyof typeof LOOPS>)('%s: a reasoning tool loop in a golden', (name) => {
  const loop = LOOPS[name];

  it('records the reasoning with its signature or encrypted content, replays it to the SDK unchanged, shows it in the summary and inspect', async () => {
    const recorded = await record(loop);
    expect(recorded.result.answer).toBe('It is 21°C in Paris.');
    expect(recorded.result.reasoning).toEqual({ text: FIRST, sealed: expect.stringMatching(/^[A-Za-z0-9+/=]{20,}$/) });
    expect(recorded.golden.interactions.map((i) => i.summary?.reasoning)).toEqual([FIRST, undefined]);
    expect(inspectGolden(recorded.golden)).toContain(`thinking: ${FIRST}`);

    const { runtime } = tempRuntime('replay', {}, recorded.root);
    await runtime.session(recorded.file, 'thinks').intercept();
    const replayed = await loop.agent();
    expect(replayed).toEqual(recorded.result);
    expect((await runtime.finish(recorded.file, 'thinks', true))?.action).toBe('replayed');
  });

  it('a re-recording mints new signatures yet reports no drift; a replay takes back only the values it served', async () => {
    const first = await record(loop);
    const second = await record(loop, first.root);
    expect(second.result.reasoning.sealed).not.toBe(first.result.reasoning.sealed);
    expect(second.outcome?.drift).toEqual([]);
    const [opening, loopBack] = first.golden.interactions;
    const send = (replayer: Replayer, { method, url, headers, body }: typeof opening.request) => replayer.serve(new Request(url, { method, headers, body: JSON.stringify(body) }));
    // The first golden's loop-back request, passing back the second recording's value instead (another key's: foreign to this replay).
    const foreign = { ...loopBack.request, body: JSON.parse(JSON.stringify(loopBack.request.body).replaceAll(first.result.reasoning.sealed, second.result.reasoning.sealed)) as unknown };

    const replayer = new Replayer(first.golden.interactions, { file: 'first.json', redactor: new Redactor() });
    await (await send(replayer, opening.request)).text();
    const refused = await send(replayer, foreign).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GoldenMismatchError);
    expect((refused as GoldenMismatchError).wire?.message).toMatch(name === 'anthropic' ? /^messages\.1\.content\.0: Invalid `signature` in `thinking` block$/ : /^The encrypted content .+ could not be verified\.$/);
    // Refused, not served: the interaction is still there for the value this replay did serve.
    const response = await send(replayer, loopBack.request);
    expect(response.status).toBe(200);
    await response.text();
    expect(replayer.unused()).toEqual([]);
  });
});
