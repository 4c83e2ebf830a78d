/**
 * The leak scanner: a golden holding a secret is never written and never replayed. Secrets are
 * known by value (configured ones, and environment variables named like keys) and by format: the
 * well-known key formats of the providers and common services, from secretlint's maintained
 * recommended rule set, plus the few provider formats that set does not cover.
 */
import { lazily } from '../lazy/index.ts';
import { GoldenLeakError } from './errors.ts';
import { jsonPath } from './json-path.ts';

/** A secret to look for, with a label safe to print (never the value itself). */
export interface Secret {
  label: string;
  value: string;
}

/** Environment variables treated as secrets: any name containing KEY, TOKEN, SECRET or PASSWORD. */
const ENV_SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD/i;

/**
 * Provider key formats secretlint's recommended set does not flag (it knows OpenAI keys only in
 * their `T3BlbkFJ` form and has no Google API key rule). Checked synchronously, on every read.
 */
const EXTRA_KEY_FORMATS: readonly { label: string; pattern: RegExp }[] = [
  { label: 'an OpenAI or Anthropic API key (sk-…)', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{40,}/ },
  { label: 'a Google API key (AIza…)', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { label: 'an AWS access key id (AKIA…)', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/ },
];

/**
 * secretlint with its recommended preset, AWS access key ids on (off by default there). Imported at the
 * first full scan (src/lazy): a worker that only replays goldens never runs one.
 */
const secretlint = lazily(async () => {
  const [{ lintSource }, { creator: recommended }] = await Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]);
  const config = {
    rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended, rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }] }],
  };
  return { lintSource, config };
});
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

type Found = { jsonPath: string; label: string };

/** The first string (or key) of a JSON value that `test` flags, with its JSON path. */
function findString(value: unknown, test: (s: string) => string | null): Found | null {
  const path: PropertyKey[] = [];
  const visit = (v: unknown): Found | null => {
    if (typeof v === 'string') {
      const label = test(v);
      return label ? { jsonPath: jsonPath(path), label } : null;
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
        const inKey = test(k);
        const found = inKey ? { jsonPath: jsonPath(path), label: inKey } : visit(child);
        path.pop();
        if (found) return found;
      }
    }
    return null;
  };
  return visit(value);
}

function knownFormat(s: string): string | null {
  for (const f of EXTRA_KEY_FORMATS) if (f.pattern.test(s)) return f.label;
  return null;
}

/**
 * Finds the first secret inside a JSON value, by value or by a provider key format (synchronous
 * checks only; see findSecretAsync for the full rule set); null when clean.
 * @example findSecret({ a: ['x sk-canary'] }, [{ label: 'K', value: 'sk-canary' }]) // { jsonPath: '$.a[0]', label: 'K' }
 */
export function findSecret(value: unknown, secrets: readonly Secret[]): Found | null {
  return findString(value, (s) => secrets.find((secret) => s.includes(secret.value))?.label ?? knownFormat(s));
}

/**
 * findSecret plus secretlint's recommended rules (GitHub, Anthropic, Slack, Stripe, private keys,
 * connection strings, …) run over the JSON text; a hit is located back to its JSON path.
 * @example await findSecretAsync(golden, secrets) // { jsonPath: '$.interactions[0]…', label: 'secretlint: GITHUB_TOKEN' } | null
 */
export async function findSecretAsync(value: unknown, secrets: readonly Secret[]): Promise<Found | null> {
  const quick = findSecret(value, secrets);
  if (quick) return quick;
  const content = JSON.stringify(value, null, 2) ?? '';
  const { lintSource, config } = await secretlint();
  const result = await lintSource({ source: { content, filePath: 'golden.json', ext: '.json', contentType: 'text' }, options: { config, noPhysicFilePath: true } });
  const message = result.messages[0];
  if (!message) return null;
  const label = `secretlint: ${message.messageId} (${message.ruleId})`;
  // The reported text as it appears in a JSON string (escapes undone), then the string holding it.
  const raw = content.slice(message.range[0], message.range[1]);
  let hit: string;
  try {
    hit = JSON.parse(`"${raw}"`) as string;
  } catch {
    hit = raw;
  }
  return findString(value, (s) => (s.includes(hit) ? label : null)) ?? { jsonPath: '$', label };
}

/**
 * Throws GoldenLeakError when the golden holds a secret (synchronous checks: values and provider formats).
 * @example assertNoSecrets(golden, secrets, 'goldens/a.json', 'write')
 */
export function assertNoSecrets(value: unknown, secrets: readonly Secret[], file: string, action: 'write' | 'replay'): void {
  const found = findSecret(value, secrets);
  if (found) throw new GoldenLeakError(file, found.jsonPath, found.label, action);
}

/**
 * The same with every rule, secretlint's included: what writes and asynchronous reads run.
 * @example await assertNoSecretsAsync(golden, secrets, 'goldens/a.json', 'write')
 */
export async function assertNoSecretsAsync(value: unknown, secrets: readonly Secret[], file: string, action: 'write' | 'replay'): Promise<void> {
  const found = await findSecretAsync(value, secrets);
  if (found) throw new GoldenLeakError(file, found.jsonPath, found.label, action);
}
