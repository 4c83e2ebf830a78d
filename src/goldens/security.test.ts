// Redaction by default, and the leak scanner on every write and every replayed file (the canary-key test).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import { GoldenLeakError } from './errors.ts';
import { collectSecrets, findSecret, findSecretAsync } from './leak-scanner.ts';
import { Redactor } from './redact.ts';
import { readGolden, serializeGolden, writeGolden } from './store.ts';
import { sampleGolden } from './testing/golden.ts';
import { tempRuntime } from './testing/runtime.ts';

const CANARY = 'sk-canary-7f3a9c2e41d8b6';

describe('redaction', () => {
  it('removes auth headers, cookies, ?key= and listed values; keeps the rest', () => {
    const r = new Redactor({ values: ['acct-998877'], headers: ['x-team-token'] });
    expect(
      r.headers(new Headers({ Authorization: 'Bearer sk-1', 'x-api-key': 'k', 'x-goog-api-key': 'g', 'api-key': 'a', cookie: 'c=1', 'X-Team-Token': 't', 'x-user': 'user acct-998877', accept: 'application/json' })),
    ).toEqual({ accept: 'application/json', 'api-key': '[REDACTED]', authorization: '[REDACTED]', cookie: '[REDACTED]', 'x-api-key': '[REDACTED]', 'x-goog-api-key': '[REDACTED]', 'x-team-token': '[REDACTED]', 'x-user': 'user [REDACTED]' });
    expect(r.url('https://generativelanguage.googleapis.com/v1beta/models/m:generateContent?key=AIzaSECRET&alt=sse')).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/m:generateContent?key=%5BREDACTED%5D&alt=sse',
    );
    expect(r.deep({ messages: [{ content: 'my account is acct-998877' }] })).toEqual({ messages: [{ content: 'my account is [REDACTED]' }] });
  });
});

describe('leak scanner', () => {
  it('takes API keys and tokens from the environment (long values only) and configured values', () => {
    const secrets = collectSecrets(['team-secret-1'], {
      OPENAI_API_KEY: CANARY,
      GITHUB_TOKEN: 'ghp_0123456789',
      SHORT_API_KEY: 'abc',
      HOME: '/root',
      AZURE_OPENAI_KEY: 'azure-8c1f0e2d9b',
      DB_PASSWORD: 'hunter2-but-longer',
      CLIENT_SECRET_VALUE: 'cs-1234567890',
    });
    expect(secrets.map((s) => s.label)).toEqual([
      'redact[0] (configured)',
      '$OPENAI_API_KEY (environment)',
      '$GITHUB_TOKEN (environment)',
      '$AZURE_OPENAI_KEY (environment)',
      '$DB_PASSWORD (environment)',
      '$CLIENT_SECRET_VALUE (environment)',
    ]);
    expect(findSecret({ deployment: { key: 'azure-8c1f0e2d9b' } }, secrets)).toEqual({ jsonPath: '$.deployment.key', label: '$AZURE_OPENAI_KEY (environment)' });
    expect(findSecret({ a: [{ b: `x ${CANARY} y` }] }, secrets)).toEqual({ jsonPath: '$.a[0].b', label: '$OPENAI_API_KEY (environment)' });
  });

  it('canary: a recording whose prompt carries the env API key is refused on write and the previous golden stays', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'echo', steps: [{ respond: { text: 'ok' }, consume: false }] }] as never });
    const { runtime, root } = tempRuntime('record', {}, undefined, { OPENAI_API_KEY: CANARY });
    const testFile = join(root, 'leak.test.ts');
    const session = runtime.session(testFile, 'leaks');
    mkdirSync(dirname(session.file), { recursive: true });
    writeFileSync(session.file, serializeGolden(sampleGolden({ test: { file: 'leak.test.ts', name: 'leaks' } })));
    const before = readFileSync(session.file, 'utf8');
    session.setUpstream(server.url);
    await session.intercept();
    // The key itself goes in the Authorization header (redacted); the bug under test pastes it into a prompt.
    const client = new OpenAI({ apiKey: CANARY, maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: `debug: key=${CANARY}` }] });
    const error = await runtime.finish(testFile, 'leaks', true).catch((e: unknown) => e);
    await server.close();
    expect(error).toBeInstanceOf(GoldenLeakError);
    expect((error as GoldenLeakError).message).toContain('refusing to write a golden that contains the secret $OPENAI_API_KEY (environment) at $.interactions[0].request.body.messages[0].content');
    expect((error as GoldenLeakError).message).not.toContain(CANARY);
    expect(readFileSync(session.file, 'utf8')).toBe(before);
  });

  it('the header-borne key alone is redacted, so the same recording without the paste is written', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'echo', steps: [{ respond: { text: 'ok' }, consume: false }] }] as never });
    const { runtime, root } = tempRuntime('record', {}, undefined, { OPENAI_API_KEY: CANARY });
    const testFile = join(root, 'clean.test.ts');
    const session = runtime.session(testFile, 'clean');
    session.setUpstream(server.url);
    await session.intercept();
    await new OpenAI({ apiKey: CANARY, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect((await runtime.finish(testFile, 'clean', true))?.action).toBe('written');
    await server.close();
    expect(readFileSync(session.file, 'utf8')).not.toContain(CANARY);
  });

  it('canary: a replayed golden that contains a configured secret is refused before anything is served', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-leak-')), 'planted.json');
    onTestFinished(() => rmSync(dirname(file), { recursive: true, force: true }));
    const planted = sampleGolden({ expected: { output: { note: `pasted ${CANARY}` } } });
    writeFileSync(file, serializeGolden(planted));
    const secrets = collectSecrets([], { ANTHROPIC_API_KEY: CANARY });
    await expect(readGolden(file, secrets)).rejects.toThrowError(/refusing to replay a golden that contains the secret \$ANTHROPIC_API_KEY \(environment\) at \$\.expected\.output\.note/);
    await expect(writeGolden(join(dirname(file), 'copy.json'), planted, secrets)).rejects.toBeInstanceOf(GoldenLeakError);
    expect(existsSync(join(dirname(file), 'copy.json'))).toBe(false);
  });

  // Keys in no configuration and no environment variable, known by their format alone (values built
  // at run time so this file itself holds no key-shaped literal).
  const keys: [string, string, RegExp][] = [
    ['OpenAI', `sk-${'a1B2c3D4e5'.repeat(5)}`, /OpenAI or Anthropic API key/],
    ['OpenAI project', `sk-proj-${'Ab3_'.repeat(20)}`, /OpenAI or Anthropic API key/],
    ['Anthropic', `sk-ant-api03-${'x9Y8'.repeat(23)}zAA`, /Anthropic API key/],
    ['Google', `AIza${'Sy0123456789abcdefghijklmnopqrstuvw'}`, /Google API key/],
    ['AWS', `AKIA${'Q7RZ4NWJ2KXM5LPT'}`, /AWS access key id/],
    ['GitHub', `ghp_${'R2d2C3po'.repeat(4)}abcd`, /GITHUB_TOKEN/],
  ];
  it.each(keys)('recognises a %s key by its format, on write and on replay', async (_name, key, label) => {
    const golden = sampleGolden({ expected: { output: { note: `debug ${key} end` } } });
    const found = await findSecretAsync(golden, []);
    expect(found?.jsonPath).toBe('$.expected.output.note');
    expect(found?.label).toMatch(label);
    const folder = mkdtempSync(join(tmpdir(), 'gw-leak-'));
    try {
      const error = await writeGolden(join(folder, 'g.json'), golden).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GoldenLeakError);
      expect((error as Error).message).not.toContain(key);
      writeFileSync(join(folder, 'planted.json'), serializeGolden(golden));
      await expect(readGolden(join(folder, 'planted.json'))).rejects.toBeInstanceOf(GoldenLeakError);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('leaves ordinary text and the mock\'s own ids alone', async () => {
    const golden = sampleGolden({ expected: { output: { note: 'sk-test is a placeholder; call_0a1b2c3d4e5f6a7b8c9d0e1f; chatcmpl-0123456789abcdef0123' } } });
    expect(await findSecretAsync(golden, [])).toBeNull();
  });
});
