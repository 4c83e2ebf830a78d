import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { serve } from './serve.ts';

function scenarioFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-serve-'));
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
});
