import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { serve } from './serve.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function scenarioFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-serve-'));
  dirs.push(dir);
  const file = join(dir, 'hello.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const hello = { name: 'hello', steps: [{ respond: { text: 'served' }, consume: false }] };

function io(env: Record<string, string | undefined> = {}, stopSignal?: (s: any) => Promise<void>) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env, stopSignal }, out, err };
}

describe('ghostwire serve', () => {
  it('serves the scenarios until stopped, printing the URL', async () => {
    let answer = '';
    const { io: sio, out } = io({}, async (server) => {
      const c = new OpenAI({ apiKey: 'sk', baseURL: `${server.url}/v1`, maxRetries: 0 });
      answer = (await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).choices[0].message.content ?? '';
    });
    expect(await serve(['--scenarios', scenarioFile(hello)], sio)).toBe(0);
    expect(answer).toBe('served');
    expect(out.join('')).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\n {2}1 scenario\(s\), 1 step\(s\)/);
    expect(out.join('')).toMatch(/stopped/);
  });

  it("refuses a request that breaks a provider's protocol rule, and answers it with --no-protocol-rules", async () => {
    // An assistant tool call left unanswered: OpenAI Chat's 400 (docs/scenario-format.md, "Protocol rules").
    const messages = [
      { role: 'user' as const, content: 'weather?' },
      { role: 'assistant' as const, content: null, tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'w', arguments: '{}' } }] },
      { role: 'user' as const, content: 'and?' },
    ];
    const statuses: Array<number | string> = [];
    for (const flags of [[], ['--no-protocol-rules']]) {
      const { io: sio } = io({}, async (server) => {
        const c = new OpenAI({ apiKey: 'sk', baseURL: `${server.url}/v1`, maxRetries: 0 });
        try {
          statuses.push((await c.chat.completions.create({ model: 'm', messages })).choices[0].message.content ?? '');
        } catch (err) {
          statuses.push((err as { status: number }).status);
        }
      });
      expect(await serve(['--scenarios', scenarioFile(hello), ...flags], sio)).toBe(0);
    }
    expect(statuses).toEqual([400, 'served']);
  });

  it('reads MOCKLLM_SCENARIOS when --scenarios is absent', async () => {
    let count = -1;
    const { io: sio } = io({ MOCKLLM_SCENARIOS: scenarioFile(hello) }, async (server) => {
      count = server.mock.engine.scenarios.length;
    });
    expect(await serve([], sio)).toBe(0);
    expect(count).toBe(1);
  });

  it('rejects a bad scenario file naming the file and path (exit 1), and bad arguments (exit 2)', async () => {
    const bad = scenarioFile({ name: 'x', steps: [{ respond: { text: 3 } }] });
    const a = io();
    expect(await serve(['--scenarios', bad], a.io)).toBe(1);
    expect(a.err.join('')).toContain(`${bad}:`);
    expect(a.err.join('')).toMatch(/steps\[0\]\.respond\.text/);
    const b = io();
    expect(await serve(['--port', 'abc'], b.io)).toBe(2);
    expect(b.err.join('')).toMatch(/--port must be an integer/);
    const c = io();
    expect(await serve(['--nope'], c.io)).toBe(2);
  });

  it('runs as the real bin and stops cleanly on SIGTERM', async () => {
    const bin = resolve(import.meta.dirname, '../../bin/ghostwire.js');
    const child = spawn(process.execPath, [bin, 'serve', '--scenarios', scenarioFile(hello)], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((res, rej) => {
        let buf = '';
        child.stdout.on('data', (d) => {
          buf += d;
          const m = /listening on (http:\/\/\S+)/.exec(buf);
          if (m) res(m[1]);
        });
        child.once('exit', (code) => rej(new Error(`exited ${code}`)));
      });
      const c = new OpenAI({ apiKey: 'sk', baseURL: `${url}/v1`, maxRetries: 0 });
      expect((await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).choices[0].message.content).toBe('served');
      const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('warns and prints a minted admin token when bound beyond loopback', async () => {
    let status = 0;
    let authorised = 0;
    const { io: sio, out, err } = io({}, async (server) => {
      const local = server.url.replace('0.0.0.0', '127.0.0.1');
      status = (await fetch(`${local}/__ghostwire/sessions`)).status;
      authorised = (await fetch(`${local}/__ghostwire/sessions`, { headers: { authorization: `Bearer ${server.token}` } })).status;
    });
    expect(await serve(['--host', '0.0.0.0', '--scenarios', scenarioFile(hello)], sio)).toBe(0);
    expect(err.join('')).toMatch(/WARNING: listening on 0\.0\.0\.0, beyond loopback/);
    expect(out.join('')).toMatch(/admin token: [A-Za-z0-9_-]{43} /);
    expect([status, authorised]).toEqual([401, 200]);
  });

  it('a served process survives each one-request crash case and answers a healthy request after', async () => {
    const bin = resolve(import.meta.dirname, '../../bin/ghostwire.js');
    const child = spawn(process.execPath, [bin, 'serve', '--scenarios', scenarioFile(hello), '--body-limit', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((res, rej) => {
        let buf = '';
        child.stdout.on('data', (d) => {
          buf += d;
          const m = /listening on (http:\/\/\S+)/.exec(buf);
          if (m) res(m[1]);
        });
        child.once('exit', (code) => rej(new Error(`exited ${code}`)));
      });
      const json = { 'content-type': 'application/json', authorization: 'Bearer sk-test' };
      const chat = (extra: string) => `{"model":"m","messages":[{"role":"user","content":"x"}]${extra}}`;
      const cases: [string, string, Record<string, string>, string | undefined, number][] = [
        ['POST', '/v1/chat/completions', json, chat(`,"metadata":${'['.repeat(20_000)}${']'.repeat(20_000)}}`), 400],
        ['POST', '/v1/chat/completions', json, chat(`,"metadata":{"pad":"${'x'.repeat(2 * 2 ** 20)}"}`), 413],
        ['GET', '/s/%/v1/models', {}, undefined, 404],
        ['GET', '/v1/models/%E0%A4%A', json, undefined, 400],
        ['POST', '/__ghostwire/sessions/default/steps', { 'content-type': 'text/plain' }, '{"steps":[{"respond":{"text":"pwned"}}]}', 415],
        ['GET', '/__ghostwire/sessions/default/requests', {}, undefined, 200],
      ];
      for (const [method, path, headers, body, expected] of cases) {
        const status = await new Promise<number>((res, rej) => {
          const req = httpRequest(url + path, { method, headers }, (r) => {
            r.resume();
            res(r.statusCode ?? 0);
          });
          req.on('error', rej);
          req.end(body);
        });
        expect(status, `${method} ${path}`).toBe(expected);
        expect(child.exitCode, `${method} ${path}`).toBeNull();
      }
      const c = new OpenAI({ apiKey: 'sk', baseURL: `${url}/v1`, maxRetries: 0 });
      expect((await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).choices[0].message.content).toBe('served');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
