import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractAnswer, normalizeAnswer, QAEnv } from './qa-env.ts';

const FIXTURE = join(import.meta.dirname, '../../fixtures/rollout/qa.json');

describe('QAEnv', () => {
  it('asks the question picked by the seed and rewards an exact match after normalization', async () => {
    const env = await QAEnv.fromFile(FIXTURE);
    const { observation, info } = await env.reset({ seed: 3 });
    expect(observation).toContain('Question: Who wrote the novel "Pride and Prejudice"?');
    expect(info).toMatchObject({ question_id: 'q4', env_instruction: expect.stringContaining('<answer>') });
    const step = env.step('I believe it is <answer> jane AUSTEN. </answer>');
    expect(step).toMatchObject({ reward: 1, terminated: true, truncated: false, info: { correct: true, given: 'jane AUSTEN.' } });
  });

  it('gives 0 for a wrong answer and says what was expected', async () => {
    const env = await QAEnv.fromFile(FIXTURE);
    env.reset({ seed: 0 });
    expect(env.step('<answer>Lyon</answer>')).toMatchObject({ reward: 0, observation: 'Incorrect. Expected: Paris', info: { correct: false } });
  });

  it('without a seed walks the questions in order; negative seeds wrap', async () => {
    const env = await QAEnv.fromFile(FIXTURE);
    expect([env.reset(), env.reset(), env.reset()].map((r) => r.info.question_id)).toEqual(['q1', 'q2', 'q3']);
    expect(env.reset({ seed: -1 }).info.question_id).toBe('q6');
  });

  it('refuses a step with no running episode', async () => {
    const env = await QAEnv.fromFile(FIXTURE);
    expect(() => env.step('x')).toThrow('call reset() first');
    env.reset();
    env.step('x');
    expect(() => env.step('x')).toThrow('call reset() first');
  });

  it('bad data files name the file and the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-'));
    try {
      const file = join(dir, 'bad.json');
      await writeFile(file, JSON.stringify({ items: [{ id: 'a', question: 'q', answers: [] }] }));
      await expect(QAEnv.fromFile(file)).rejects.toThrow(`${file}: items.0.answers: Too small`);
      await writeFile(file, '{');
      await expect(QAEnv.fromFile(file)).rejects.toThrow(`${file}: cannot read QA data`);
      expect(() => new QAEnv({ items: [] })).toThrow('QAEnv items.: Too small');
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});

describe('answers', () => {
  it.each([
    ['The Eiffel Tower!', 'eiffel tower'],
    ['  an   Apple, a day ', 'apple day'],
    ['1,969', '1 969'],
    ['Ｐａｒｉｓ', 'paris'],
  ])('normalizeAnswer(%j) = %j', (input, output) => {
    expect(normalizeAnswer(input)).toBe(output);
  });

  it('extractAnswer takes the last <answer>, or the whole action', () => {
    expect(extractAnswer('<answer>a</answer> then <ANSWER>b</ANSWER>')).toBe('b');
    expect(extractAnswer('just text')).toBe('just text');
  });
});
