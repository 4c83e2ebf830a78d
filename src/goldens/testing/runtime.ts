import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveGoldensConfig, type GoldensOptionsInput } from '../config.ts';
import { GoldensRuntime } from '../runtime.ts';

/** A runtime over a fresh temp project root, with the mode forced (no CI or env influence). */
export function tempRuntime(mode: 'replay' | 'record' | 'record-missing' | 'update', options: GoldensOptionsInput = {}, root = mkdtempSync(join(tmpdir(), 'gw-goldens-')), env: Record<string, string | undefined> = {}): { runtime: GoldensRuntime; root: string } {
  const config = resolveGoldensConfig({ ...options, mode: mode === 'update' ? 'replay' : mode }, { root, env, update: mode === 'update' });
  return { runtime: new GoldensRuntime(config, env), root };
}
