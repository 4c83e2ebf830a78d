import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { resolveGoldensConfig, type GoldensOptionsInput } from '../config.ts';
import { GoldensRuntime } from '../runtime.ts';
import type { GoldenFile } from '../schema.ts';
import { startMockLLMServer } from '../../transports/server.ts';

/**
 * A runtime over a fresh temp project root (removed when the calling test finishes), with the
 * mode forced (no CI or env influence). Pass `root` to reuse one within the same test.
 */
export function tempRuntime(mode: 'replay' | 'record' | 'record-missing' | 'update', options: GoldensOptionsInput = {}, root?: string, env: Record<string, string | undefined> = {}): { runtime: GoldensRuntime; root: string } {
  if (root === undefined) {
    const fresh = mkdtempSync(join(tmpdir(), 'gw-goldens-'));
    onTestFinished(() => rmSync(fresh, { recursive: true, force: true }));
    root = fresh;
  }
  const config = resolveGoldensConfig({ ...options, mode: mode === 'update' ? 'replay' : mode }, { root, env, update: mode === 'update' });
  return { runtime: new GoldensRuntime(config, env), root };
}

/**
 * Records `run` (an SDK call) into a golden in a fresh temp project, the upstream being a mock LLM
 * server answering `scenario` on a real port, which is closed before this returns (so a replay
 * after it reaches no upstream). The golden is `testFile`'s (under the temp root) named `name`.
 */
export async function recordThrough<T>(scenario: unknown, testFile: string, name: string, run: () => Promise<T>): Promise<{ recorded: T; golden: GoldenFile; root: string; file: string }> {
  const server = await startMockLLMServer({ scenarios: [scenario as never] });
  const { runtime, root } = tempRuntime('record');
  const file = join(root, testFile);
  try {
    const recording = runtime.session(file, name);
    recording.setUpstream(server.url);
    await recording.intercept();
    const recorded = await run();
    await runtime.finish(file, name, true);
    return { recorded, golden: recording.golden()!, root, file };
  } finally {
    await server.close();
  }
}

/** Replays the golden `recordThrough` wrote (same root, file and name): what `run` gets, and what the runtime did. */
export async function replayThrough<T>(root: string, file: string, name: string, run: () => Promise<T>): Promise<{ replayed: T; action: string | null | undefined }> {
  const { runtime } = tempRuntime('replay', {}, root);
  await runtime.session(file, name).intercept();
  const replayed = await run();
  return { replayed, action: (await runtime.finish(file, name, true))?.action };
}
