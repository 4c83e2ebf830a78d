import { describe, expect, it } from 'vitest';
import { lintScenario } from './lint.ts';
import { parseScenarioText } from './loader.ts';
import { ScenarioSchema, type ScenarioInput } from './schema.ts';
import { formatPath } from './issues.ts';

const lint = (input: ScenarioInput): string[] => lintScenario(ScenarioSchema.parse(input)).map((w) => `${formatPath(w.path)}: ${w.message}`);

describe('lintScenario', () => {
  it('finds steps shadowed by an earlier persistent catch-all or an identical persistent match', () => {
    expect(
      lint({
        name: 's',
        steps: [
          { match: { model: 'a' }, respond: { text: '1' }, consume: false },
          { match: { model: 'a' }, respond: { text: '2' } },
          { match: { model: 'b' }, respond: { text: '3' } },
          { respond: { text: 'catch-all' }, consume: false },
          { match: { model: 'c' }, respond: { text: '5' } },
        ],
      }),
    ).toEqual([
      'steps[1]: never answers: steps[0] before it has the same match and is never consumed',
      'steps[4]: never answers: steps[3] before it matches every request and is never consumed',
    ]);
  });

  it('flags ignored settings', () => {
    expect(
      lint({
        name: 's',
        steps: [
          { match: { model: 'a' }, respond: { text: 'x', expectToolResults: true }, times: 2, consume: false },
          { match: { model: 'b' }, respond: { text: 'x', error: { status: 500, message: 'boom' } } },
          { match: { provider: 'openai' }, respond: { embeddings: [[1]] } },
          { match: { provider: 'embeddings' }, respond: { text: 'hi' } },
        ],
      }),
    ).toEqual([
      'steps[0].times: ignored: the step has consume: false, so it is never consumed',
      'steps[0].respond.expectToolResults: has no effect: the step makes no tool calls',
      'steps[1].respond.error: the error is answered; text, toolCalls and embeddings of this step are never sent',
      'steps[2].respond.embeddings: only embeddings requests use vectors, but this step matches provider "openai"',
      'steps[3].respond: embeddings requests get vectors; text and toolCalls are not sent',
    ]);
  });

  it('is quiet for sensible scenarios and the loader locates warnings without failing', () => {
    expect(lint({ name: 'ok', steps: [{ respond: { toolCalls: [{ name: 'f' }], expectToolResults: true } }, { respond: { text: 'done' } }] })).toEqual([]);
    const text = '[\n  { "name": "a", "steps": [] },\n  { "name": "b", "steps": [\n    { "respond": {}, "consume": false },\n    { "respond": {} }\n  ] }\n]';
    const { scenarios, issues, warnings } = parseScenarioText(text, 'w.json');
    expect(issues).toEqual([]);
    expect(scenarios).toHaveLength(2);
    expect(warnings).toEqual([
      { file: 'w.json', path: '[1].steps[1]', line: 5, column: 5, message: 'never answers: steps[0] before it matches every request and is never consumed' },
    ]);
  });
});
