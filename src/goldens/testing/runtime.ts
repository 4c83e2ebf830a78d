import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { resolveGoldensConfig, type GoldensOptionsInput } from '../config.ts';
import { GoldensRuntime } from '../runtime.ts';

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
