import { compileKeys, type ResolvedGoldensConfig } from './config.ts';
import { collectSecrets } from './leak-scanner.ts';
import { Masker } from './masks.ts';
import { Redactor } from './redact.ts';
import { GoldenSession, type GoldensContext, type SessionOutcome } from './session.ts';

/** The part of a Vitest task the runtime needs (kept structural so this file does not depend on Vitest). */
export interface TaskLike {
  name: string;
  suite?: { name: string; suite?: unknown } | null;
  file: { filepath: string; name?: string };
}

/**
 * Vitest's `currentTestName`: suite names and the test name joined by " > ".
 * @example
 *   fullTestName(task) // 'weather > answers in Celsius'
 */
export function fullTestName(task: TaskLike): string {
  const names = [task.name];
  let current = task.suite as { name: string; suite?: unknown } | null | undefined;
  while (current) {
    if (current.name && current !== (task.file as unknown)) names.unshift(current.name);
    current = current.suite as typeof current;
  }
  return names.join(' > ');
}

/**
 * The goldens state of one test worker: the resolved options and one session per running test.
 * In Vitest the worker's in-process layer keeps one (src/vitest/goldens-runtime.ts).
 * @example const session = new GoldensRuntime(config).session(task.file.filepath, fullTestName(task))
 */
export class GoldensRuntime {
  readonly ctx: GoldensContext;
  private readonly sessions = new Map<string, GoldenSession>();

  constructor(config: ResolvedGoldensConfig, env: Record<string, string | undefined> = process.env) {
    this.ctx = {
      config,
      secrets: collectSecrets(config.redact, env),
      redactor: new Redactor({ headers: config.redactHeaders, values: config.redact }),
      masker: new Masker({ defaults: config.masks.defaults, keys: compileKeys(config.masks.keys), paths: config.masks.paths }),
    };
  }

  /** The session of a test, created on first use (`onCreate` then registers its end with the test). */
  session(testFile: string, testName: string, onCreate?: () => void): GoldenSession {
    const key = `${testFile}\u0000${testName}`;
    let session = this.sessions.get(key);
    if (!session) {
      session = new GoldenSession(this.ctx, { testFile, testName });
      this.sessions.set(key, session);
      onCreate?.();
    }
    return session;
  }

  /** The session of a test if it has one. */
  peek(testFile: string, testName: string): GoldenSession | undefined {
    return this.sessions.get(`${testFile}\u0000${testName}`);
  }

  /** Ends a test's session (if it had one): writes or throws as the session decides. */
  async finish(testFile: string, testName: string, passed: boolean): Promise<SessionOutcome | null> {
    const key = `${testFile}\u0000${testName}`;
    const session = this.sessions.get(key);
    if (!session) return null;
    this.sessions.delete(key);
    return session.finish(passed);
  }
}
