/**
 * Test helpers for the proxy's own tests: temp stores, a manual clock, fixture server configs,
 * and the mock LLM wired into the official openai SDK through its `fetch` option (no network).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverEntry } from '../../fixtures/servers/launch.ts';
import type { Clock } from './breaker.ts';

/** A fresh directory under the OS temp dir, and its cleanup. */
export function tempDir(prefix = 'ghostwire-proxy-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A clock whose sleeps return at once and advance time; every sleep is logged. */
export function manualClock(start = Date.UTC(2026, 10, 1)): Clock & { sleeps: number[]; advance(ms: number): void } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => { sleeps.push(ms); now += ms; },
    advance: (ms) => { now += ms; },
  };
}

/** A stdio server entry running a fixture with this Node. */
export function stdioEntry(name: string, env?: Record<string, string>): { command: string; args: string[]; env?: Record<string, string> } {
  return serverEntry(name, env ? { env } : {});
}

/** A fetch that answers from a mock LLM's handle (anything with `handle(Request)`). */
export function mockFetch(mock: { handle: (request: Request) => Promise<Response> }): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) => mock.handle(new Request(input, init))) as typeof fetch;
}

/** Whether a process id is alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
