import { z } from 'zod';

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
    /**
     * Start the worker's interception when the setup file loads, before test files are imported, so SDK
     * clients built at module level (which keep the `fetch` they saw) are intercepted too. Off by default:
     * it makes every test of the worker run under MSW (unhandled non-loopback requests fail).
     */
    interceptEarly: z.boolean().default(false),
    /** Goldens recorded longer ago than this are reported as expired. */
    maxAgeDays: z.number().positive().nullable().default(null),
  })
  .strict();

export type GoldensOptionsInput = z.input<typeof GoldensOptionsSchema>;
export type GoldensOptions = z.output<typeof GoldensOptionsSchema>;

export type GoldenMode = 'replay' | 'record' | 'record-missing' | 'update';

/** Options resolved for a run: what workers receive through `inject('ghostwire')`. */
export interface ResolvedGoldensConfig extends GoldensOptions {
  root: string;
  /** The effective mode after CI, GHOSTWIRE_RECORD and `-u` were applied. */
  effectiveMode: GoldenMode;
  ci: boolean;
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
 * The effective mode: CI forces replay; otherwise `-u` is update, GHOSTWIRE_RECORD=1 is record
 * (`GHOSTWIRE_RECORD=missing` is record-missing), else the configured mode.
 * @example resolveMode('replay', { CI: 'true', GHOSTWIRE_RECORD: '1' }, false) // 'replay'
 */
export function resolveMode(configured: GoldensOptions['mode'], env: Record<string, string | undefined>, update: boolean): GoldenMode {
  if (truthy(env.CI)) return update ? 'update' : 'replay';
  if (update) return 'update';
  const record = env.GHOSTWIRE_RECORD;
  if (record && record.toLowerCase() === 'missing') return 'record-missing';
  if (truthy(record)) return 'record';
  return configured;
}

/** Is this a CI run? (`CI` set to anything but 0/false). */
function isCI(env: Record<string, string | undefined>): boolean {
  return truthy(env.CI);
}

/**
 * Resolves options for a run.
 * @example resolveGoldensConfig({}, { root: process.cwd(), env: process.env, update: false })
 */
export function resolveGoldensConfig(
  options: GoldensOptionsInput | GoldensOptions,
  context: { root: string; env: Record<string, string | undefined>; update: boolean },
): ResolvedGoldensConfig {
  const parsed = parseGoldensOptions(options);
  return { ...parsed, root: context.root, effectiveMode: resolveMode(parsed.mode, context.env, context.update), ci: isCI(context.env) };
}

/** Mask key strings: `/re/flags` become RegExps. */
export function compileKeys(keys: readonly string[]): Array<string | RegExp> {
  return keys.map((k) => {
    const m = /^\/(.+)\/([a-z]*)$/.exec(k);
    return m ? new RegExp(m[1], m[2]) : k;
  });
}
