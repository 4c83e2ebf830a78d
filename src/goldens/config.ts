import { z } from 'zod';
// The provider registry's list of default origins: the one place that knows the providers' hosts.
import { PROVIDER_HOST_PATTERNS, PROVIDER_ORIGINS } from '../providers/index.ts';

/** Options of the goldens machinery, as given to `ghostwire(options)` in vitest.config.ts. */
export const GoldensOptionsSchema = z
  .object({
    /** Where goldens live, relative to the project root. */
    goldensDir: z.string().min(1).default('goldens'),
    /** Default mode when neither CI, GHOSTWIRE_RECORD nor `-u` says otherwise. */
    mode: z.enum(['replay', 'record', 'record-missing']).default('replay'),
    masks: z
      .object({
        defaults: z.boolean().default(true),
        /** Key names, or `/regex/flags` strings. */
        keys: z.array(z.string()).default([]),
        /** JSON paths like `$.steps[*].startedAt`. */
        paths: z.array(z.string()).default([]),
      })
      .strict()
      .default({ defaults: true, keys: [], paths: [] }),
    /** Secret values replaced wherever they occur; the leak scanner also refuses them. */
    redact: z.array(z.string()).default([]),
    /** Extra header names to redact. */
    redactHeaders: z.array(z.string()).default([]),
    /** Extra origins (besides the three providers' hosts) whose traffic is recorded and replayed. */
    hosts: z.array(z.string().url()).default([]),
    /** Record mode: forward to this base URL instead of the real provider (e.g. a local mock server). */
    upstream: z.string().url().nullable().default(null),
    /** JSON paths in request bodies ignored when matching a replayed request (`$.user`, `$.metadata.*`). */
    ignorePaths: z.array(z.string()).default([]),
    /** Replay streams with no delays (`compressed`) or at the recorded offsets (`real`). */
    timing: z.enum(['compressed', 'real']).default('compressed'),
    /** A recorded interaction that replay never used fails its test (default: it is only reported). */
    strict: z.boolean().default(false),
    /** Goldens recorded longer ago than this are reported as expired. */
    maxAgeDays: z.number().positive().nullable().default(null),
  })
  .strict();

export type GoldensOptionsInput = z.input<typeof GoldensOptionsSchema>;
export type GoldensOptions = z.output<typeof GoldensOptionsSchema>;

export type GoldenMode = 'replay' | 'record' | 'record-missing' | 'update';

/** What happens to provider traffic: answered from goldens, or sent on and recorded. */
export type TrafficMode = 'replay' | 'record' | 'record-missing';

/** Vitest's `snapshotOptions.updateSnapshot`: `all` (`-u`), `new` (the local default), `none` (the CI default, `--update=none`). */
export type OutputsUpdate = 'all' | 'new' | 'none';

/**
 * The goldens decisions, in one place (docs/decisions/golden-modes.md says why). Two independent axes:
 *
 * Traffic (requests to providers), decided by `resolveTraffic`:
 *   CI                                         -> replay (a record request is ignored, with a warning)
 *   GHOSTWIRE_RECORD=1 / --record-goldens      -> record: sent on and recorded; provider hosts reachable
 *   GHOSTWIRE_RECORD=missing / --record-missing -> record-missing: record tests without a golden, replay the rest
 *   otherwise                                  -> the `mode` option (default replay)
 *
 * Expected outputs (`toMatchGolden`), following Vitest's snapshots exactly (`OUTPUTS`):
 */
export const OUTPUTS: Record<OutputsUpdate, { missing: 'write' | 'fail'; differs: 'write' | 'fail' }> = {
  all: { missing: 'write', differs: 'write' },
  new: { missing: 'write', differs: 'fail' },
  none: { missing: 'fail', differs: 'fail' },
};
// A record run writes the whole golden from this run (outputs included); a failed test writes nothing.
// Provider hosts are sealed (nothing unanswered leaves the process) in every traffic mode but record.

/** Options resolved for a run: what workers receive through `inject('ghostwire')`. */
export interface ResolvedGoldensConfig extends GoldensOptions {
  root: string;
  traffic: TrafficMode;
  outputs: OutputsUpdate;
  /** The session mode derived from both axes (`update` = replay traffic with `-u`). */
  effectiveMode: GoldenMode;
  ci: boolean;
  /** The providers' default origins (from the provider registry), always intercepted. */
  providerOrigins: string[];
  /** The providers' hosts given as patterns (`*.openai.azure.com`), sealed like the origins. */
  providerHostPatterns: string[];
  /** How to record a missing golden, in its error (the real port names its own command). */
  recordHint?: string;
}

/**
 * Parses plugin options; errors name the option.
 * @example parseGoldensOptions({ goldensDir: 'test/goldens' })
 */
export function parseGoldensOptions(input: unknown): GoldensOptions {
  const result = GoldensOptionsSchema.safeParse(input ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`ghostwire plugin options: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return result.data;
}

function truthy(value: string | undefined): boolean {
  return !!value && !['0', 'false', 'no', ''].includes(value.toLowerCase());
}

/**
 * The traffic mode (see the table above).
 * @example resolveTraffic('replay', { GHOSTWIRE_RECORD: '1' }, true) // 'replay'
 */
export function resolveTraffic(configured: TrafficMode, env: Record<string, string | undefined>, ci: boolean): TrafficMode {
  if (ci) return 'replay';
  const record = env.GHOSTWIRE_RECORD;
  if (record && record.toLowerCase() === 'missing') return 'record-missing';
  if (truthy(record)) return 'record';
  return configured;
}

/**
 * The session mode from the two axes: record traffic records; `-u` over replay traffic updates outputs.
 * @example resolveMode('replay', { CI: 'true', GHOSTWIRE_RECORD: '1' }, false) // 'replay'
 */
export function resolveMode(configured: TrafficMode, env: Record<string, string | undefined>, update: boolean | OutputsUpdate, ci = truthy(env.CI)): GoldenMode {
  const traffic = resolveTraffic(configured, env, ci);
  const outputs = typeof update === 'string' ? update : update ? 'all' : 'new';
  return outputs === 'all' && traffic !== 'record' ? 'update' : traffic;
}

/**
 * Resolves options for a run. `update` is Vitest's `updateSnapshot` (or true for `-u`); `ci` defaults to
 * the `CI` variable (the plugin passes what Vitest itself detects).
 * @example resolveGoldensConfig({}, { root: process.cwd(), env: process.env, update: 'new' })
 */
export function resolveGoldensConfig(
  options: GoldensOptionsInput | GoldensOptions,
  context: { root: string; env: Record<string, string | undefined>; update: boolean | OutputsUpdate; ci?: boolean; providerOrigins?: readonly string[]; providerHostPatterns?: readonly string[] },
): ResolvedGoldensConfig {
  const parsed = parseGoldensOptions(options);
  const ci = context.ci ?? truthy(context.env.CI);
  const outputs: OutputsUpdate = typeof context.update === 'string' ? context.update : context.update ? 'all' : ci ? 'none' : 'new';
  const traffic = resolveTraffic(parsed.mode, context.env, ci);
  return {
    ...parsed,
    root: context.root,
    traffic,
    outputs,
    effectiveMode: resolveMode(parsed.mode, context.env, outputs, ci),
    ci,
    providerOrigins: [...(context.providerOrigins ?? PROVIDER_ORIGINS)],
    providerHostPatterns: [...(context.providerHostPatterns ?? PROVIDER_HOST_PATTERNS)],
  };
}

/** Mask key strings: `/re/flags` become RegExps. */
export function compileKeys(keys: readonly string[]): Array<string | RegExp> {
  return keys.map((k) => {
    const m = /^\/(.+)\/([a-z]*)$/.exec(k);
    return m ? new RegExp(m[1], m[2]) : k;
  });
}
