/**
 * Host patterns adapters declare: a plain host (`api.openai.com`, or with a port for a local server:
 * `127.0.0.1:11434`, then only that port matches), `*` for exactly one DNS label
 * (`*.openai.azure.com`, `bedrock-runtime.*.amazonaws.com`) and `{name}` for a named run of label
 * characters inside a label (`{location}-aiplatform.googleapis.com`).
 */

export interface HostMatcher {
  readonly pattern: string;
  /** The named parts when `host` (no port) matches, else null. */
  match(host: string): Record<string, string> | null;
}

const escape = (s: string): string => s.replace(/[.+?^$()[\]\\|]/g, '\\$&');

/**
 * Compiles a host pattern (case-insensitive; a port in the host is ignored).
 * @example
 *   hostPattern('{location}-aiplatform.googleapis.com').match('europe-west4-aiplatform.googleapis.com') // { location: 'europe-west4' }
 *   hostPattern('*.openai.azure.com').match('a.b.openai.azure.com') // null: `*` is one label
 */
export function hostPattern(pattern: string): HostMatcher {
  const names: string[] = [];
  const source = pattern
    .toLowerCase()
    .split(/(\*|\{[a-z][a-z0-9_]*\})/i)
    .map((part) => {
      if (part === '*') return '[a-z0-9-]+';
      const named = /^\{([a-z][a-z0-9_]*)\}$/i.exec(part);
      if (named) {
        names.push(named[1]);
        return '([a-z0-9-]+)';
      }
      return escape(part);
    })
    .join('');
  const re = new RegExp(`^${source}$`);
  // A pattern with a port (`127.0.0.1:11434`, a local server's) matches that port only.
  const withPort = /:\d+$/.test(pattern);
  return {
    pattern,
    match(host: string) {
      const m = re.exec(withPort ? host.toLowerCase() : host.toLowerCase().replace(/:\d+$/, ''));
      if (!m) return null;
      const out: Record<string, string> = {};
      names.forEach((n, i) => (out[n] = m[i + 1]));
      return out;
    },
  };
}

/** True when the pattern names one concrete host (no `*`, no `{name}`). */
export const isConcreteHost = (pattern: string): boolean => !/[*{]/.test(pattern);
