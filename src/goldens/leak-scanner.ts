import { GoldenLeakError } from './errors.ts';
import { jsonPath } from './json-path.ts';

/** A secret to look for, with a label safe to print (never the value itself). */
export interface Secret {
  label: string;
  value: string;
}

/** Environment variables treated as secrets: provider keys and anything named like a key or token. */
const ENV_SECRET_NAME = /(^|_)(API_KEY|APIKEY|ACCESS_KEY|SECRET|SECRET_KEY|TOKEN|AUTH_TOKEN)$/i;
/** Short values ("test", "x") would flag ordinary text; real keys are long. */
const MIN_SECRET_LENGTH = 8;

/**
 * The secrets to scan for: the configured values plus API keys and tokens from the environment.
 * @example collectSecrets(['acct-1234567'], process.env)
 */
export function collectSecrets(configured: readonly string[], env: Record<string, string | undefined>): Secret[] {
  const secrets: Secret[] = configured
    .filter((v) => v.length > 0)
    .map((value, i) => ({ label: `redact[${i}] (configured)`, value }));
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && ENV_SECRET_NAME.test(name)) {
      secrets.push({ label: `$${name} (environment)`, value });
    }
  }
  return secrets;
}

/**
 * Finds the first secret inside a JSON value; null when clean.
 * @example findSecret({ a: ['x sk-canary'] }, [{ label: 'K', value: 'sk-canary' }]) // { jsonPath: '$.a[0]', label: 'K' }
 */
export function findSecret(value: unknown, secrets: readonly Secret[]): { jsonPath: string; label: string } | null {
  if (secrets.length === 0) return null;
  const path: PropertyKey[] = [];
  const visit = (v: unknown): { jsonPath: string; label: string } | null => {
    if (typeof v === 'string') {
      const hit = secrets.find((s) => v.includes(s.value));
      return hit ? { jsonPath: jsonPath(path), label: hit.label } : null;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const found = visit(v[i]);
        path.pop();
        if (found) return found;
      }
      return null;
    }
    if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        path.push(k);
        const inKey = secrets.find((s) => k.includes(s.value));
        const found = inKey ? { jsonPath: jsonPath(path), label: inKey.label } : visit(child);
        path.pop();
        if (found) return found;
      }
    }
    return null;
  };
  return visit(value);
}

/**
 * Throws GoldenLeakError when the golden holds a secret.
 * @example assertNoSecrets(golden, secrets, 'goldens/a.json', 'write')
 */
export function assertNoSecrets(value: unknown, secrets: readonly Secret[], file: string, action: 'write' | 'replay'): void {
  const found = findSecret(value, secrets);
  if (found) throw new GoldenLeakError(file, found.jsonPath, found.label, action);
}
