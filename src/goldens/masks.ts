/**
 * Masks: volatile fields (ids, timestamps, durations) are replaced by a placeholder in both
 * expected and actual values before comparing, so a re-run does not fail on them.
 */

export const MASKED = '<masked>';

export interface MaskOptions {
  /** Keep the default masks (ids, timestamps, durations). Default true. */
  defaults?: boolean;
  /** Extra keys to mask: exact names or patterns. */
  keys?: ReadonlyArray<string | RegExp>;
  /** Extra locations to mask: JSON paths like `$.steps[*].startedAt` (`*` matches any key or index). */
  paths?: readonly string[];
}

const DEFAULT_KEYS: readonly RegExp[] = [
  /^id$/i,
  /[a-z](Id|_id|ID)$/,
  /^(created|createdAt|created_at|updatedAt|updated_at|timestamp|time|date|startedAt|endedAt|finishedAt|recordedAt)$/,
  /(Ms|_ms|Millis|Seconds|_seconds)$/,
  /^(duration|elapsed|latency|durationMs|executionTime)$/i,
  /(Duration|Latency|Elapsed)$/,
  /^system_fingerprint$/,
];

/** ISO timestamps anywhere in values are volatile too. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Compiled masks, built once per run.
 * @example
 *   const masked = new Masker({ keys: ['traceId'] }).apply(run); // ids, timestamps and traceId masked
 */
export class Masker {
  private readonly keys: ReadonlyArray<string | RegExp>;
  private readonly paths: RegExp[];
  private readonly maskTimestamps: boolean;

  constructor(options: MaskOptions = {}) {
    const defaults = options.defaults ?? true;
    this.keys = [...(defaults ? DEFAULT_KEYS : []), ...(options.keys ?? [])];
    this.paths = (options.paths ?? []).map(pathPattern);
    this.maskTimestamps = defaults;
  }

  /**
   * Returns a copy with masked fields replaced by `<masked>`.
   * @example new Masker().apply({ id: 'x1', text: 'hi' }) // { id: '<masked>', text: 'hi' }
   */
  apply(value: unknown): unknown {
    return this.walk(value, '$', null);
  }

  private walk(value: unknown, path: string, key: string | null): unknown {
    if (this.paths.some((p) => p.test(path))) return MASKED;
    if (key !== null && this.keys.some((k) => (typeof k === 'string' ? k === key : k.test(key)))) {
      if (value === null || typeof value !== 'object') return MASKED;
    }
    if (typeof value === 'string' && this.maskTimestamps && ISO_TIMESTAMP.test(value)) return MASKED;
    if (Array.isArray(value)) return value.map((v, i) => this.walk(v, `${path}[${i}]`, null));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.walk(v, childPath(path, k), k);
      return out;
    }
    return value;
  }
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function pathPattern(path: string): RegExp {
  const escaped = path
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\\\[\\\*\\\]/g, '\\[\\d+\\]')
    .replace(/\\\.\\\*/g, '\\.[^.\\[]+');
  return new RegExp(`^${escaped}$`);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
