// A changed string output (top level or nested) is one value in the golden diff: one old → new line,
// or a line diff for multi-line text, never one operation per character.
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema.ts';
import { startMockLLMServer } from '../transports/server.ts';
import { compareValues } from './compare.ts';
import { tempRuntime } from './testing/runtime.ts';

const text = 'All good: the forecast for Paris is sunny and warm.';
const scenario = { name: 'forecast', steps: [{ respond: { text }, consume: false }] } as unknown as ScenarioInput;
const equals = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

async function ask(): Promise<string> {
  const client = new OpenAI({ apiKey: 'sk-string-diff-test', maxRetries: 0 });
  return (await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Forecast?' }] })).choices[0].message.content ?? '';
}

describe('toMatchGolden on changed strings', () => {
  it('diffs a changed SDK answer as one replace, top level and nested', async () => {
    const server = await startMockLLMServer({ scenarios: [scenario] });
    const { runtime, root } = tempRuntime('record');
    const testFile = join(root, 'strings.test.ts');
    const recording = runtime.session(testFile, 'forecast');
    recording.setUpstream(server.url);
    await recording.intercept();
    const answer = await ask();
    expect(recording.expect('answer', answer, { equals }).pass).toBe(true);
    expect(recording.expect('nested', { reply: { text: answer } }, { equals }).pass).toBe(true);
    await runtime.finish(testFile, 'forecast', true);
    await server.close();

    const { runtime: replay } = tempRuntime('replay', {}, root);
    const session = replay.session(testFile, 'forecast');
    await session.intercept();
    const replayed = await ask();
    expect(replayed).toBe(text);
    const changed = replayed.replace('All good', 'lovely');
    const top = session.expect('answer', changed, { equals });
    expect(top.pass).toBe(false);
    const diffLines = top.message.split('\n').filter((l) => l.startsWith('  ~') || l.startsWith('  +') || l.startsWith('  -'));
    expect(diffLines).toEqual([`  ~ $: ${JSON.stringify(text)} → ${JSON.stringify(changed)}`]);
    const nested = session.expect('nested', { reply: { text: changed } }, { equals });
    expect(nested.message).toContain(`  ~ $.reply.text: ${JSON.stringify(text)} → ${JSON.stringify(changed)}`);
    expect(nested.message).not.toMatch(/\$\.reply\.text\[\d+\]/);
    await replay.finish(testFile, 'forecast', true);
  });

  it('shows a line diff for multi-line strings', () => {
    const result = compareValues({ body: 'one\ntwo\nthree' }, { body: 'one\nTWO\nthree\nfour' });
    expect(result.operations).toHaveLength(1);
    expect(result.diff).toBe(['  ~ $.body: (lines)', '      one', '    - two', '    + TWO', '      three', '    + four'].join('\n'));
    expect(compareValues('a\nb', 'a\nc').diff).toBe(['  ~ $: (lines)', '      a', '    - b', '    + c'].join('\n'));
  });

  it('compares a string against a non-string as one value', () => {
    expect(compareValues('abc', ['a', 'b', 'c']).operations).toEqual([{ op: 'replace', path: '', value: ['a', 'b', 'c'] }]);
    expect(compareValues('same', 'same').pass).toBe(true);
  });
});
