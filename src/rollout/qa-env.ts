import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Env, Info, ResetOptions, ResetResult, StepResult } from './env.ts';

/** One question with every answer that counts as right. */
export const QAItemSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  answers: z.array(z.string().min(1)).min(1),
});

/** A QA data file: `{ name?, items: [{ id, question, answers }] }`. */
export const QAFileSchema = z.object({
  name: z.string().optional(),
  items: z.array(QAItemSchema).min(1),
});

export type QAItem = z.infer<typeof QAItemSchema>;

/** Options for {@link QAEnv}. */
export interface QAEnvOptions {
  items: QAItem[];
  /** Shown before each question; says how to answer. */
  instruction?: string;
}

const DEFAULT_INSTRUCTION =
  'Answer the question. When you know the answer, reply with it inside <answer>...</answer>.';

/**
 * Normalizes an answer for exact-match scoring, as SQuAD does: lower case, no
 * punctuation, no articles (a, an, the), single spaces.
 *
 * @example
 * normalizeAnswer('The  Eiffel Tower!') // 'eiffel tower'
 */
export function normalizeAnswer(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Takes the agent's answer out of an action: the text inside the last
 * `<answer>...</answer>`, or the whole action when there is no such tag.
 *
 * @example
 * extractAnswer('I think <answer>Paris</answer>') // 'Paris'
 */
export function extractAnswer(action: string): string {
  const matches = [...action.matchAll(/<answer>([\s\S]*?)<\/answer>/gi)];
  const last = matches.at(-1);
  return last ? last[1] : action;
}

/**
 * A one-turn question-answering environment: `reset` asks a question, `step`
 * scores the answer (reward 1 on an exact match after normalization, else 0) and
 * ends the episode. The question is `items[seed % n]` when a seed is given,
 * otherwise the next one in order.
 *
 * @example
 * const env = await QAEnv.fromFile('fixtures/rollout/qa.json');
 * const { observation } = await env.reset({ seed: 0 });
 * const { reward } = await env.step('<answer>Paris</answer>'); // 1
 */
export class QAEnv implements Env<string> {
  readonly items: readonly QAItem[];
  readonly instruction: string;
  #cursor = 0;
  #current: QAItem | undefined;
  #done = true;

  constructor(options: QAEnvOptions) {
    const parsed = z.array(QAItemSchema).min(1).safeParse(options.items);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`QAEnv items.${issue.path.join('.')}: ${issue.message}`);
    }
    this.items = parsed.data;
    this.instruction = options.instruction ?? DEFAULT_INSTRUCTION;
  }

  /**
   * Reads a QA data file (JSON, {@link QAFileSchema}); errors name the file and the field.
   *
   * @example
   * const env = await QAEnv.fromFile('fixtures/rollout/qa.json', { instruction: 'Be brief.' });
   */
  static async fromFile(file: string, options: Omit<QAEnvOptions, 'items'> = {}): Promise<QAEnv> {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new Error(`${file}: cannot read QA data: ${(error as Error).message}`, { cause: error });
    }
    const parsed = QAFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    return new QAEnv({ ...options, items: parsed.data.items });
  }

  /** The question of the running episode. */
  get current(): QAItem | undefined {
    return this.#current;
  }

  reset(options: ResetOptions = {}): ResetResult<string> {
    const n = this.items.length;
    const index = options.seed === undefined ? this.#cursor++ % n : ((options.seed % n) + n) % n;
    const item = this.items[index];
    this.#current = item;
    this.#done = false;
    return {
      observation: `${this.instruction}\n\nQuestion: ${item.question}`,
      info: { env_instruction: this.instruction, question_id: item.id, question: item.question },
    };
  }

  step(action: string): StepResult<string> {
    const item = this.#current;
    if (!item || this.#done) throw new Error('QAEnv.step() called with no running episode: call reset() first');
    this.#done = true;
    const given = extractAnswer(action);
    const correct = item.answers.some((answer) => normalizeAnswer(answer) === normalizeAnswer(given));
    const info: Info = { question_id: item.id, given: given.trim(), expected: item.answers, correct };
    return {
      observation: correct ? 'Correct.' : `Incorrect. Expected: ${item.answers[0]}`,
      reward: correct ? 1 : 0,
      terminated: true,
      truncated: false,
      info,
    };
  }
}
