/**
 * Goldens on the real port, as a user runs them: `ghostwire serve --goldens` as its own process, an app
 * in another process (the openai and Anthropic SDKs, streaming and tools) recording through it against
 * an upstream (a second ghostwire on loopback: no network), then replaying with the upstream gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, type Dirent, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseGolden, readGolden } from '../goldens/store.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { serve } from './serve.ts';
import { PortGoldens } from '../goldens/port-goldens.ts';
import { goldenFront } from '../transports/golden-front.ts';

const BIN = resolve(import.meta.dirname, '../../bin/ghostwire.js');
const APP = resolve(import.meta.dirname, '../../fixtures/user-project/child-app.mjs');
const OPENAI_KEY = 'sk-test-NEVER-ON-DISK-openai-7f3a9c';
const ANTHROPIC_KEY = 'sk-ant-test-NEVER-ON-DISK-anthropic-2b8e';

const dirs: string[] = [];
const children = new Set<ChildProcess>();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  await Promise.all(closers.splice(0).map((c) => c()));
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-port-goldens-'));
  dirs.push(dir);
  return dir;
}

/** Environment for children: no CI (recording would be refused), the compile cache kept. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { CI: _ci, OPENAI_API_KEY: _o, ANTHROPIC_API_KEY: _a, ...rest } = process.env;
  return { ...rest, ...extra };
}

interface Served {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

async function startServe(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
  children.add(child);
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((res, rej) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      const m = /listening on (http:\/\/\S+)/.exec(buf);
      if (m) res(m[1]);
    });
    child.once('exit', (code) => rej(new Error(`ghostwire serve exited ${code}: ${err}`)));
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return { url, child, stderr: () => err, stop: () => (child.kill('SIGTERM'), exited) };
}

interface AppResult {
  openai?: { calls: unknown[]; answer: string; plain: string };
  anthropic?: { calls: unknown[]; answer: string };
  error?: { status: number | null; message: string };
  bodies: Array<{ path: string; status: number; base64: string }>;
}

async function runApp(sessionUrl: string): Promise<AppResult> {
  const child = spawn(process.execPath, [APP], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv({ OPENAI_BASE_URL: `${sessionUrl}/v1`, ANTHROPIC_BASE_URL: sessionUrl, OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY }),
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  await new Promise((res) => child.once('exit', res));
  if (!out) throw new Error(`the app printed nothing: ${err}`);
  return JSON.parse(out) as AppResult;
}

const AGENT_SCENARIOS = [
  {
    name: 'agent',
    steps: [
      { match: { provider: 'openai', toolResults: ['get_weather'] }, respond: { text: 'It is sunny in Paris, 21 °C.' }, consume: false },
      { match: { provider: 'openai', tools: ['get_weather'] }, respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false },
      { match: { provider: 'openai' }, respond: { text: 'Hi there!' }, consume: false },
      { match: { provider: 'anthropic', toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris: 21 degrees.' }, consume: false },
      { match: { provider: 'anthropic', tools: ['get_weather'] }, respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false },
    ],
  },
];

async function upstreamServer(scenarios: unknown[]): Promise<MockLLMServer> {
  const server = await startMockLLMServer({ scenarios: scenarios as never });
  closers.push(() => server.close());
  return server;
}

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): Array<[string, string]> {
  const files = (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  expect(files.length).toBeGreaterThan(0);
  return files.map((f) => [f, readFileSync(f, 'utf8')]);
}

describe('ghostwire serve --goldens', () => {
  it('records a child app through the port against an upstream, then replays it byte for byte with the upstream gone', async () => {
    const dir = tempDir();
    const upstream = await upstreamServer(AGENT_SCENARIOS);
    const recording = await startServe(['--goldens', dir, '--record', '--upstream', upstream.url]);
    const recorded = await runApp(`${recording.url}/s/app-run`);
    expect(recorded.error).toBeUndefined();
    expect(recorded.openai).toEqual({ calls: [{ name: 'get_weather', args: { city: 'Paris' } }], answer: 'It is sunny in Paris, 21 °C.', plain: 'Hi there!' });
    expect(recorded.anthropic).toEqual({ calls: [{ name: 'get_weather', args: { city: 'Paris' } }], answer: 'Sunny in Paris: 21 degrees.' });
    // The upstream really answered, with the app's keys passed through (its journal shows the requests).
    expect(upstream.mock.requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await recording.stop()).toBe(0);
    expect(recording.stderr()).toMatch(/golden app-run \(.*app-run\.json\): written/);
    await upstream.close();

    const golden = parseGolden(readFileSync(join(dir, 'app-run.json'), 'utf8'), 'app-run.json');
    expect(golden.interactions.map((i) => `${i.provider} ${new URL(i.request.url).pathname} ${i.response.events ? 'stream' : 'json'}`)).toEqual([
      'openai /v1/chat/completions stream',
      'openai /v1/chat/completions stream',
      'openai /v1/chat/completions json',
      'anthropic /v1/messages stream',
      'anthropic /v1/messages stream',
    ]);
    // Recorded against the upstream given (its URL), not the port the app used.
    expect(golden.interactions[0].request.url).toBe(`${upstream.url}/v1/chat/completions`);

    const replaying = await startServe(['--goldens', dir]);
    const replayed = await runApp(`${replaying.url}/s/app-run`);
    expect(replayed.error).toBeUndefined();
    expect(replayed.openai).toEqual(recorded.openai);
    expect(replayed.anthropic).toEqual(recorded.anthropic);
    expect(replayed.bodies).toHaveLength(5);
    // Byte-equal: every response body the SDKs received, streams included.
    expect(replayed.bodies).toEqual(recorded.bodies);

    // Unused interactions: a session created for the golden that makes one of its five calls.
    const created = await fetch(`${replaying.url}/__ghostwire/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ golden: 'app-run', id: 'partial' }) });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: 'partial', golden: 'app-run', mode: 'replay' });
    const client = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${replaying.url}/s/partial/v1`, maxRetries: 0 });
    expect((await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hi' }] })).choices[0].message.content).toBe('Hi there!');
    const deleted = await fetch(`${replaying.url}/__ghostwire/sessions/partial`, { method: 'DELETE' });
    const report = (await deleted.json()) as { golden: { action: string; unused: string[] } };
    expect(report.golden.action).toBe('replayed');
    expect(report.golden.unused).toEqual(['0: POST /v1/chat/completions', '1: POST /v1/chat/completions', '3: POST /v1/messages', '4: POST /v1/messages']);

    // A client that cannot use a session URL names its golden with a header; its unused ones are reported at shutdown.
    const plain = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${replaying.url}/v1`, maxRetries: 0, defaultHeaders: { 'x-ghostwire-golden': 'app-run' } });
    expect((await plain.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hi' }] })).choices[0].message.content).toBe('Hi there!');
    expect(await replaying.stop()).toBe(0);
    expect(replaying.stderr()).toMatch(/golden app-run \(.*\): replayed; 4 unused recorded interaction\(s\): 0: POST \/v1\/chat\/completions/);

    // The keys reached the upstream but no file on disk.
    for (const [file, text] of filesUnder(dir)) {
      expect(text, file).not.toContain('NEVER-ON-DISK');
    }
  });

  it('records and replays the @google/genai SDK (streaming) through a session, the key sent as x-goog-api-key kept off disk', async () => {
    const dir = tempDir();
    const upstream = await upstreamServer([{ name: 'gemini', steps: [{ match: { provider: 'gemini' }, respond: { text: 'Bonjour from Gemini, streamed in pieces.', stream: { chunkSize: 6 } }, consume: false }] }]);
    const ask = async (url: string) => {
      const ai = new GoogleGenAI({ apiKey: 'AIza-test-NEVER-ON-DISK-gemini', httpOptions: { baseUrl: url } });
      let text = '';
      for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Say bonjour' })) text += chunk.text ?? '';
      return text;
    };
    const recording = await startServe(['--goldens', dir, '--record', '--upstream', `gemini=${upstream.url}`]);
    expect(await ask(`${recording.url}/s/gemini-hello`)).toBe('Bonjour from Gemini, streamed in pieces.');
    expect(await recording.stop()).toBe(0);
    await upstream.close();
    const golden = parseGolden(readFileSync(join(dir, 'gemini-hello.json'), 'utf8'), 'gemini-hello.json');
    expect(golden.interactions.map((i) => `${i.provider} ${i.request.url}`)).toEqual([`gemini ${upstream.url}/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse`]);
    expect(golden.interactions[0].request.headers['x-goog-api-key']).toBe('[REDACTED]');
    const replaying = await startServe(['--goldens', dir]);
    expect(await ask(`${replaying.url}/s/gemini-hello`)).toBe('Bonjour from Gemini, streamed in pieces.');
    expect(await replaying.stop()).toBe(0);
    expect(replaying.stderr()).toMatch(/golden gemini-hello \(.*\): replayed(?!;)/);
    for (const [file, text] of filesUnder(dir)) expect(text, file).not.toContain('NEVER-ON-DISK');
  });

  it('answers a request no golden holds with the provider-shaped error naming the golden and how to record it', async () => {
    const dir = tempDir();
    const replaying = await startServe(['--goldens', dir]);
    const openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${replaying.url}/s/checkout-pays/v1`, maxRetries: 0 });
    const error = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((error as Error).message).toContain('no golden recorded for "checkout-pays"');
    expect((error as Error).message).toContain('checkout-pays.json');
    expect((error as Error).message).toMatch(/ghostwire serve --goldens \S+ --record-missing/);
    const anthropic = new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: `${replaying.url}/s/checkout-pays`, maxRetries: 0 });
    const aerror = await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(aerror).toBeInstanceOf(Anthropic.APIError);
    // Anthropic's own error shape: { type: 'error', error: { type, message } }.
    expect((aerror as { error: { type: string; error: { message: string } } }).error.type).toBe('error');
    expect((aerror as { error: { error: { message: string } } }).error.error.message).toContain('checkout-pays.json');
    // Without --scenarios, a request that names no golden is told how to name one.
    const unnamed = await new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${replaying.url}/v1`, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect((unnamed as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((unnamed as Error).message).toMatch(/names no golden.*\/s\/<golden-name>.*x-ghostwire-golden/);
    expect(await replaying.stop()).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('records 8 sessions at once without mixing them, each into its own golden (nested names through the admin API)', async () => {
    const dir = tempDir();
    const upstream = await upstreamServer([{ name: 'echo', steps: [{ respond: { text: 'echo: {{lastUserMessage}}', stream: { chunkSize: 3 } }, consume: false }] }]);
    const recording = await startServe(['--goldens', dir, '--record-missing', '--upstream', `openai=${upstream.url}`]);
    const sessions = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        if (i % 2 === 0) return { name: `solo-${i}`, url: `${recording.url}/s/solo-${i}` };
        const res = await fetch(`${recording.url}/__ghostwire/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ golden: `team/pair-${i}` }) });
        const body = (await res.json()) as { url: string; mode: string };
        expect(body.mode).toBe('record');
        return { name: `team/pair-${i}`, url: body.url };
      }),
    );
    const answers = await Promise.all(
      sessions.map(async ({ url }, i) => {
        const client = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
        const out: string[] = [];
        for (const turn of [1, 2]) {
          const stream = await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: `session ${i} turn ${turn}` }] });
          let text = '';
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
          out.push(text);
        }
        return out;
      }),
    );
    expect(answers).toEqual(sessions.map((_, i) => [`echo: session ${i} turn 1`, `echo: session ${i} turn 2`]));
    expect(await recording.stop()).toBe(0);
    for (const [i, { name }] of sessions.entries()) {
      const golden = await readGolden(join(dir, `${name}.json`));
      expect(golden!.test.name).toBe(name);
      expect(golden!.interactions.map((x) => (x.request.body as { messages: Array<{ content: string }> }).messages[0].content)).toEqual([`session ${i} turn 1`, `session ${i} turn 2`]);
      expect(golden!.interactions.map((x) => x.summary?.text)).toEqual([`echo: session ${i} turn 1`, `echo: session ${i} turn 2`]);
    }
  });

  it('never writes a key: auth headers pass through redacted, and a response echoing the key is refused by the leak scan', async () => {
    const dir = tempDir();
    const seen: IncomingHttpHeaders[] = [];
    const echo = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => {
        const leaked = req.url?.includes('leak') ? String(req.headers.authorization) : 'fine';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: leaked, refusal: null }, finish_reason: 'stop', logprobs: null }] }));
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => echo.close(() => r())));
    const upstream = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const recording = await startServe(['--goldens', dir, '--record', '--upstream', upstream]);
    const ok = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${recording.url}/s/keeps-no-key/v1`, maxRetries: 0 });
    expect((await ok.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })).choices[0].message.content).toBe('fine');
    const leaky = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${recording.url}/s/echoes-key/leak/v1`, maxRetries: 0 });
    // The client still gets its answer (the exchange happened); only the golden is refused.
    expect((await leaky.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })).choices[0].message.content).toBe(`Bearer ${OPENAI_KEY}`);
    expect(await recording.stop()).toBe(0);
    expect(seen.map((h) => h.authorization)).toEqual([`Bearer ${OPENAI_KEY}`, `Bearer ${OPENAI_KEY}`]);
    const kept = parseGolden(readFileSync(join(dir, 'keeps-no-key.json'), 'utf8'), 'x');
    expect(kept.interactions[0].request.headers.authorization).toBe('[REDACTED]');
    expect(existsSync(join(dir, 'echoes-key.json'))).toBe(false);
    expect(recording.stderr()).toMatch(/golden echoes-key: .*refusing to write a golden that contains the secret the client's authorization header/);
    for (const [file, text] of filesUnder(dir)) expect(text, file).not.toContain('NEVER-ON-DISK');
  });

  it('leaves every golden readable when the server is SIGKILLed in the middle of a recorded stream', async () => {
    const dir = tempDir();
    const upstream = await upstreamServer([{ name: 'slow', steps: [{ respond: { text: 'one two three four five six seven eight', stream: { chunkSize: 4, chunkDelayMs: 150 } }, consume: false }] }]);
    const recording = await startServe(['--goldens', dir, '--record', '--upstream', upstream.url]);
    const client = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${recording.url}/s/killed/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'first' }] });
    // The first exchange is on disk before the server ends: written after each completed exchange.
    await expect.poll(() => existsSync(join(dir, 'killed.json')), { timeout: 5000 }).toBe(true);
    const stream = await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'second' }] });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    recording.child.kill('SIGKILL');
    await new Promise((r) => recording.child.once('exit', r));
    await iterator.next().catch(() => null);
    const golden = await readGolden(join(dir, 'killed.json'));
    expect(golden!.interactions).toHaveLength(1);
    expect((golden!.interactions[0].request.body as { messages: Array<{ content: string }> }).messages[0].content).toBe('first');
  });

  it('in-process: requests naming no golden fall through to the scenarios; an idle-expired session reports its golden on the next admin call', async () => {
    const dir = tempDir();
    const upstream = await upstreamServer([{ name: 'up', steps: [{ respond: { text: 'from upstream' }, consume: false }] }]);
    const lines: string[] = [];
    const front = goldenFront(new PortGoldens({ dir, mode: 'record', upstream: upstream.url, env: {} }), { log: (l) => lines.push(l) });
    const server = await startMockLLMServer({ scenarios: [{ name: 'local', steps: [{ respond: { text: 'from scenarios' }, consume: false }] }] as never, front, sessionIdleMs: 200 });
    closers.push(() => server.close());
    const ask = (baseURL: string, headers: Record<string, string> = {}) =>
      new OpenAI({ apiKey: OPENAI_KEY, baseURL, maxRetries: 0, defaultHeaders: headers }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }).then((c) => c.choices[0].message.content);
    expect(await ask(`${server.url}/v1`)).toBe('from scenarios');
    expect(await ask(`${server.url}/s/short-lived/v1`)).toBe('from upstream');
    expect(await ask(`${server.url}/v1`, { 'x-ghostwire-golden': 'by-header' })).toBe('from upstream');
    await new Promise((r) => setTimeout(r, 400));
    expect((await fetch(`${server.url}/__ghostwire/health`)).status).toBe(200);
    expect(lines.join('\n')).toMatch(/golden short-lived \(.*short-lived\.json\): written/);
    expect(lines.join('\n')).not.toMatch(/by-header/);
    await server.close();
    expect(lines.join('\n')).toMatch(/golden by-header \(.*by-header\.json\): written/);
    expect(readdirSync(dir).sort()).toEqual(['by-header.json', 'short-lived.json']);
  });

  it("answers a session id that would pass the session limit with the provider's 429, not a 500, and stays usable", async () => {
    const dir = tempDir();
    const front = goldenFront(new PortGoldens({ dir, mode: 'replay', env: {} }), { log: () => {} });
    const server = await startMockLLMServer({ front, maxSessions: 1 });
    closers.push(() => server.close());
    const ask = (id: string) =>
      new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${server.url}/s/${id}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    // The first id takes the one free session (no golden: the provider-shaped 400 naming it); the second finds none free.
    expect(await ask('first').catch((e: { status: number }) => e.status)).toBe(400);
    const full = await ask('second').catch((e: unknown) => e);
    expect(full).toBeInstanceOf(OpenAI.RateLimitError);
    expect((full as Error).message).toMatch(/1 sessions already exist \(the limit\)/);
    expect((await fetch(`${server.url}/__ghostwire/health`)).status).toBe(200);
  });

  it("bounds the goldens in play: header-named ones make room from their own oldest, sessions past the bound get the provider's 429", async () => {
    const dir = tempDir();
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    const front = goldenFront(new PortGoldens({ dir, mode: 'replay', env: {}, limits: { goldens: 3 }, log }), { log });
    const server = await startMockLLMServer({ front });
    closers.push(() => server.close());
    const ask = (base: string, golden?: string) =>
      new OpenAI({ apiKey: OPENAI_KEY, baseURL: base, maxRetries: 0, defaultHeaders: golden ? { 'x-ghostwire-golden': golden } : {} })
        .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
        .catch((e: { status: number }) => e.status);
    // The default session names golden after golden by header (none recorded: each a 400 naming it): past
    // three, its least recently used one ends to make room, and is reported as ended.
    const plain = `${server.url}/v1`;
    expect([await ask(plain, 'a'), await ask(plain, 'b'), await ask(plain, 'c'), await ask(plain, 'a'), await ask(plain, 'd')]).toEqual([400, 400, 400, 400, 400]);
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.join('\n')).toMatch(/golden b \(.*\): .*\(ended to make room\)/);
    expect(lines.join('\n')).not.toMatch(/golden a \(/);
    // A session named by id has no golden of its own to end: with the table full it gets the provider's
    // 429, and so does the admin API's create; the default session's goldens still answer.
    expect(await ask(`${server.url}/s/one/v1`)).toBe(429);
    const refused = await fetch(`${server.url}/__ghostwire/sessions`, { method: 'POST', body: JSON.stringify({ golden: 'e' }) });
    expect(refused.status).toBe(429);
    expect(await ask(plain, 'd')).toBe(400);
  });

  it('refuses to record under CI=true unless forced, and checks its options', async () => {
    const err: string[] = [];
    const io = (env: Record<string, string>) => ({ out: () => {}, err: (t: string) => err.push(t), env, stopSignal: async () => {} });
    expect(await serve(['--goldens', tempDir(), '--record'], io({ CI: 'true' }))).toBe(2);
    expect(err.join('')).toMatch(/refusing to record with CI=true.*--force-record/);
    expect(await serve(['--goldens', tempDir(), '--record', '--force-record'], io({ CI: 'true' }))).toBe(0);
    expect(await serve(['--record'], io({}))).toBe(2);
    expect(err.join('')).toMatch(/need --goldens DIR/);
    expect(await serve(['--goldens', tempDir(), '--upstream', 'nosuch=http://127.0.0.1:1'], io({}))).toBe(2);
    expect(err.join('')).toMatch(/unknown provider "nosuch"/);
  });
});
