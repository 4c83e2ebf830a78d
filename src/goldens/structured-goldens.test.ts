// Structured answers and reasoning in goldens' readable side: summaries keep the object, diffs and drift
// show the object's changes (not escaped strings), `ghostwire inspect` shows reasoning and refusals.
import { describe, expect, it } from 'vitest';
import { compareValues } from './compare.ts';
import { describeDrift, finalJson } from './drift.ts';
import { inspectGolden } from './inspect.ts';
import { parseGolden, serializeGolden } from './store.ts';
import { answerSummary } from './summary.ts';
import { sampleGolden, sampleInteraction } from './testing/golden.ts';

const report = (temperature: number) => JSON.stringify({ city: 'Paris', temperature, sky: 'sunny' });

describe('a structured answer is an object in summaries, diffs and drift', () => {
  it('the summary keeps the value beside the text, and reasoning and refusal when the answer carried them', () => {
    expect(answerSummary({ text: report(21), toolCalls: [], finishReason: 'stop', usage: null })).toEqual({
      text: report(21),
      toolCalls: [],
      finishReason: 'stop',
      json: { city: 'Paris', temperature: 21, sky: 'sunny' },
    });
    const summary = answerSummary({ text: 'Sunny.', toolCalls: [], finishReason: 'stop', usage: null, reasoning: 'Looked it up.', refusal: undefined });
    expect(summary).toEqual({ text: 'Sunny.', toolCalls: [], finishReason: 'stop', reasoning: 'Looked it up.' });
    expect(answerSummary({ text: '', toolCalls: [], finishReason: 'stop', usage: null, refusal: 'I cannot help with that.' }).refusal).toBe('I cannot help with that.');
    // Text that only looks like JSON stays text.
    expect(answerSummary({ text: '{not json', toolCalls: [], finishReason: 'stop', usage: null }).json).toBeUndefined();
  });

  it('a toMatchGolden diff of JSON text shows the changed fields', () => {
    const golden = { choices: [{ message: { content: report(21) } }] };
    const actual = { choices: [{ message: { content: report(23) } }] };
    const { pass, diff } = compareValues(golden, actual);
    expect(pass).toBe(false);
    expect(diff).toContain('$.choices[0].message.content: (JSON)');
    expect(diff).toContain('$.temperature: 21 → 23');
    expect(diff).not.toContain('\\"');
  });

  it('drift between two recordings of a structured answer names the fields that changed', () => {
    const golden = (temperature: number) =>
      sampleGolden({ interactions: [sampleInteraction({ summary: answerSummary({ text: report(temperature), toolCalls: [], finishReason: 'stop', usage: null }) })] });
    expect(describeDrift(golden(21), golden(21))).toEqual([]);
    const drift = describeDrift(golden(21), golden(25));
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatch(/^final answer \(JSON\):\n {2}~ \$\.temperature: 21 → 25$/);
    expect(finalJson(golden(25))).toEqual({ city: 'Paris', temperature: 25, sky: 'sunny' });
  });

  it('a golden with reasoning, a structured value and reasoning tokens round-trips through the file format', () => {
    const golden = sampleGolden({
      interactions: [
        sampleInteraction({
          summary: { ...answerSummary({ text: report(21), toolCalls: [], finishReason: 'stop', usage: null }), reasoning: 'Checked the forecast.' },
          usage: { inputTokens: 10, outputTokens: 40, reasoningTokens: 32 },
        }),
      ],
    });
    const back = parseGolden(serializeGolden(golden), 'g.json');
    expect(back.interactions[0].summary).toMatchObject({ reasoning: 'Checked the forecast.', json: { temperature: 21 } });
    expect(back.interactions[0].usage).toEqual({ inputTokens: 10, outputTokens: 40, reasoningTokens: 32 });
  });
});

describe('ghostwire inspect shows reasoning and refusals', () => {
  it('prints the thinking before the answer, reasoning tokens, the structured value and a refusal', () => {
    const golden = sampleGolden({
      interactions: [
        sampleInteraction({
          summary: { text: '', toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } }], finishReason: 'tool_use', reasoning: 'The user wants the weather in Paris; call the tool.' },
          usage: { inputTokens: 20, outputTokens: 60, reasoningTokens: 48 },
        }),
        sampleInteraction({ summary: answerSummary({ text: report(21), toolCalls: [], finishReason: 'stop', usage: null }) }),
        sampleInteraction({ summary: answerSummary({ text: '', toolCalls: [], finishReason: 'stop', usage: null, refusal: 'I cannot help with that.' }) }),
      ],
    });
    const lines = inspectGolden(golden).split('\n');
    const at = (needle: string): number => lines.findIndex((l) => l.includes(needle));
    expect(at('thinking: The user wants the weather in Paris; call the tool.')).toBeGreaterThan(0);
    expect(at('thinking:')).toBeLessThan(at('tool call get_weather'));
    expect(at('20 in / 60 out (48 reasoning)')).toBeGreaterThan(0);
    expect(at('assistant (JSON): {"city":"Paris","temperature":21,"sky":"sunny"}')).toBeGreaterThan(0);
    expect(at('assistant refused: I cannot help with that.')).toBeGreaterThan(0);
  });
});
