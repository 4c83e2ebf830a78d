/**
 * Asymmetric matchers inside stored expected values. A golden is JSON, so a matcher is written as a
 * placeholder string — `"expect.any(Number)"`, `"expect.anything()"`, `"expect.stringMatching(/^call_/)"`,
 * `"expect.stringContaining(\"Paris\")"` — by hand or by `toMatchGolden`'s property matchers, and turned
 * back into the real matcher when comparing.
 */

/** The asymmetric matcher constructors of an `expect` (Vitest's, in practice). */
export interface MatcherFactory {
  any(constructor: unknown): unknown;
  anything(): unknown;
  stringMatching(pattern: RegExp): unknown;
  stringContaining(text: string): unknown;
}

const PLACEHOLDER = /^expect\.(any|anything|stringMatching|stringContaining)\((.*)\)$/s;
const CONSTRUCTORS: Record<string, unknown> = { Number, String, Boolean, Object, Array, Function, Date, BigInt, Symbol };

/**
 * Is this stored string a matcher placeholder?
 * @example
 *   isPlaceholder('expect.any(String)') // true
 */
export function isPlaceholder(value: unknown): value is string {
  return typeof value === 'string' && PLACEHOLDER.test(value);
}

/**
 * Turns a placeholder into a matcher; null when it is not one (or malformed: then it compares as text).
 * @example fromPlaceholder('expect.any(Number)', expect) // expect.any(Number)
 */
export function fromPlaceholder(text: string, factory: MatcherFactory): unknown {
  const m = PLACEHOLDER.exec(text);
  if (!m) return null;
  const [, kind, arg] = m;
  try {
    switch (kind) {
      case 'any':
        return arg in CONSTRUCTORS ? factory.any(CONSTRUCTORS[arg]) : null;
      case 'anything':
        return arg === '' ? factory.anything() : null;
      case 'stringMatching': {
        const re = /^\/(.*)\/([a-z]*)$/s.exec(arg);
        return re ? factory.stringMatching(new RegExp(re[1], re[2])) : null;
      }
      case 'stringContaining':
        return factory.stringContaining(JSON.parse(arg) as string);
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/**
 * The placeholder text for a matcher, so a property matcher is stored as itself rather than as the
 * value it happened to match; null for matchers that have no JSON form (the value is stored then).
 * @example toPlaceholder(expect.any(Number)) // 'expect.any(Number)'
 */
export function toPlaceholder(matcher: unknown): string | null {
  const m = matcher as { asymmetricMatch?: unknown; toString?: () => string; sample?: unknown; inverse?: boolean };
  if (!m || typeof m.asymmetricMatch !== 'function' || m.inverse) return null;
  const kind = String(m.toString?.());
  const sample = m.sample;
  if (kind === 'Any' && typeof sample === 'function' && sample.name in CONSTRUCTORS) return `expect.any(${sample.name})`;
  if (kind === 'Anything') return 'expect.anything()';
  if (kind === 'StringMatching' && sample instanceof RegExp) return `expect.stringMatching(${String(sample)})`;
  if (kind === 'StringMatching' && typeof sample === 'string') return `expect.stringMatching(/${sample}/)`;
  if (kind === 'StringContaining' && typeof sample === 'string') return `expect.stringContaining(${JSON.stringify(sample)})`;
  return null;
}
