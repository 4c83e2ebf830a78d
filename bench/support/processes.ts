/**
 * Process-separated measurement: the server under test and its baseline each run in their own child
 * process, load comes from further child processes, and the figure is the server process's own CPU
 * time as the OS accounts it (/proc/<pid>/task/<tid>/schedstat, summed over its threads), so the client's cost never mixes in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const ghostwireBin = fileURLToPath(new URL('../../bin/ghostwire.js', import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  /** CPU time the process has used so far, in ms, as the kernel's scheduler accounts it. */
  cpuMs(): number;
  /** Resident memory now and its peak (VmRSS, VmHWM), in MiB. */
  memory(): { rssMiB: number; peakMiB: number };
  /** Times its main thread has gone to sleep so far (voluntary context switches): its event loop waiting for work. */
  sleeps(): number;
  /** Runs autocannon with these options against the server, from the server's own load generator (its own process). */
  load(options: Record<string, unknown>): Promise<LoadResult>;
  stop(): Promise<void>;
}

/**
 * A function that awaits a server process and stops it after the bench file (one list per file).
 * @example
 *   const started = stoppedAfterAll();
 *   const ghostwire = await started(startGhostwire(dir, scenarios));
 */
export function stoppedAfterAll(): (server: Promise<ServerProcess>) => Promise<ServerProcess> {
  const servers: ServerProcess[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.stop())));
  return async (pending) => {
    const server = await pending;
    servers.push(server);
    return server;
  };
}

/** A scratch folder removed after the bench file (and, failing that, when its process exits). */
export function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  // Removed after the file's benches: a Vitest worker can be ended without its 'exit' handlers running.
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function started(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c));
    const onData = (c: Buffer) => {
      out += c;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(url);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before listening: ${err || out}`)));
  });
}

function serverProcess(args: string[], what: string): Promise<ServerProcess> {
  // Its own process group, ended with the bench: SIGTERM on stop, SIGKILL from our 'exit' handler, and
  // when the bench's process is gone without running either, by the child itself (exit-with-parent.ts:
  // its stdin is a pipe only we hold).
  const child = spawn(process.execPath, ['--import', here('./exit-with-parent.ts'), ...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const pid = child.pid!;
  const kill = () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', kill);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let generator: LoadGenerator | undefined;
  return started(child, what).then(
    (url) => ({
      url,
      pid,
      cpuMs() {
        // Every thread's time on a CPU (the first field of schedstat, in ns): the main thread, GC helpers
        // and libuv's pool together, at nanosecond resolution (stat's utime/stime count 10 ms ticks).
        let ns = 0;
        for (const task of readdirSync(`/proc/${pid}/task`)) {
          try {
            ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
          } catch {
            // the thread ended between listing and reading
          }
        }
        return ns / 1e6;
      },
      memory() {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
        return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
      },
      sleeps() {
        // The main thread's own count (/proc/PID/status is the thread group leader's).
        return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
      },
      load(options) {
        return (generator ??= new LoadGenerator()).run(options);
      },
      async stop() {
        generator?.stop();
        process.off('exit', kill);
        try {
          process.kill(-pid, 'SIGTERM');
        } catch {
          return;
        }
        const timer = setTimeout(kill, 5000);
        await exited;
        clearTimeout(timer);
      },
    }),
    (err: unknown) => {
      kill();
      throw err;
    },
  );
}

/**
 * `ghostwire serve` on the given scenarios (written to a file), as a user starts it for a non-JS client;
 * `args` are further command-line options.
 * @example
 *   const server = await startGhostwire(dir, [{ name: 'bench', steps: [...] }]);
 */
export function startGhostwire(dir: string, scenarios: unknown[], args: string[] = []): Promise<ServerProcess> {
  const file = join(dir, `scenarios-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(scenarios));
  return serverProcess([ghostwireBin, 'serve', '--scenarios', file, ...args], 'ghostwire serve');
}

export interface Captured {
  headers: Record<string, string>;
  body: Buffer;
}

/** One answer's status line aside, its headers (less per-connection ones) and exact bytes. */
export async function capture(url: string, init: RequestInit): Promise<Captured> {
  const res = await fetch(url, init);
  if (res.status !== 200) throw new Error(`capture: status ${res.status}: ${await res.text()}`);
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)) headers[k] = v;
  });
  return { headers, body: Buffer.from(await res.arrayBuffer()) };
}

/**
 * The baseline: a bare node:http server (its own process) answering every request with these bytes.
 * @example
 *   const bare = await startBare(dir, await capture(`${server.url}/v1/chat/completions`, init));
 */
export function startBare(dir: string, answer: Captured): Promise<ServerProcess> {
  const file = join(dir, `answer-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ headers: answer.headers, body: answer.body.toString('base64') }));
  return serverProcess([here('./bare-server.ts'), file], 'bare server');
}

/**
 * The floor of a mock's work: a bare server that also parses each body, encodes a fresh answer and
 * journals the request (see bare-work-server.ts), for the same captured answer.
 * @example
 *   const floor = await startBareWork(dir, answer);
 */
export function startBareWork(dir: string, answer: Captured): Promise<ServerProcess> {
  const file = join(dir, `answer-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ headers: answer.headers, body: answer.body.toString('base64') }));
  return serverProcess([here('./bare-work-server.ts'), file], 'bare work server');
}

function runChild(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args[0]} exited ${code}: ${err}`))));
  });
}

export interface LoadResult {
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytes: number;
  p99Ms: number;
}

/**
 * A load generator process (load.ts) that stays up between runs: one autocannon run per call, in order.
 * Its own process group; it ends when its stdin does (`stop`, or the bench's process gone).
 */
class LoadGenerator {
  readonly #child: ChildProcess;
  readonly #waiting: { resolve: (r: LoadResult) => void; reject: (e: Error) => void }[] = [];
  #err = '';

  constructor() {
    this.#child = spawn(process.execPath, [here('./load.ts')], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.#child.stderr!.on('data', (c: Buffer) => (this.#err += c));
    createInterface({ input: this.#child.stdout! }).on('line', (line) => this.#waiting.shift()?.resolve(JSON.parse(line) as LoadResult));
    this.#child.once('exit', (code) => {
      for (const w of this.#waiting.splice(0)) w.reject(new Error(`the load generator exited (${code}): ${this.#err}`));
    });
  }

  run(options: Record<string, unknown>): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#child.stdin!.write(`${JSON.stringify(options)}\n`);
    });
  }

  stop(): void {
    this.#child.stdin!.end();
  }
}

/** Opens `count` streaming clients at once from one process; see stream-clients.ts. */
export async function streamClients(url: string, count: number, body: string, expected: string) {
  const out = await runChild([here('./stream-clients.ts'), url, String(count), body, expected]);
  return JSON.parse(out) as { complete: number; failed: number; failures: string[]; intervals: [number, number][] };
}

export interface Round {
  /** Server CPU per request, µs. */
  cpuUs: number;
  /** Requests per second of wall-clock time. */
  rps: number;
  p99Ms: number;
  /**
   * How often the server's event loop went to sleep, per request: about 1 when each wake-up finds one
   * request, near 0 when each finds several (the server is the side the load waits on, or the requests
   * come in bursts). A server that answers one request a wake-up also wakes the client once an answer,
   * so its CPU per request depends on which side is faster (docs/decisions/benchmarks-from-outside-the-process.md).
   */
  sleepsPerRequest: number;
}

/**
 * One round of load against one server: its CPU per request from /proc, throughput, p99. Throws when a
 * request failed, so a figure never comes from a run that dropped answers.
 */
export async function measure(server: ServerProcess, options: Record<string, unknown>, expectBytes?: number): Promise<Round> {
  const cpu0 = server.cpuMs();
  const sleeps0 = server.sleeps();
  const t0 = performance.now();
  const r = await server.load(options);
  const ms = performance.now() - t0;
  const cpu = server.cpuMs() - cpu0;
  const sleeps = server.sleeps() - sleeps0;
  if (r.ok !== r.requests || r.errors || r.timeouts || r.non2xx) throw new Error(`failed requests: ${JSON.stringify(r)}`);
  if (expectBytes !== undefined && Math.abs(r.bytes / r.requests - expectBytes) > expectBytes * 0.05 + 300) {
    throw new Error(`answers of ${(r.bytes / r.requests).toFixed(0)} bytes on average, expected about ${expectBytes} (+ headers)`);
  }
  return { cpuUs: (cpu * 1000) / r.requests, rps: (r.requests * 1000) / ms, p99Ms: r.p99Ms, sleepsPerRequest: sleeps / r.requests };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Alternates the two sides for `rounds` rounds (which goes first swaps each round, so both meet the same
 * drift of a shared machine) and returns each side's rounds.
 */
export async function alternate(rounds: number, a: () => Promise<Round>, b: () => Promise<Round>): Promise<{ a: Round[]; b: Round[] }> {
  const out = { a: [] as Round[], b: [] as Round[] };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      out.a.push(await a());
      out.b.push(await b());
    } else {
      out.b.push(await b());
      out.a.push(await a());
    }
  }
  return out;
}

/**
 * `alternate` for any number of sides: each round runs every side once, the order rotated by one each
 * round, so every side meets the same drift of a shared machine.
 */
export async function rotate(rounds: number, sides: (() => Promise<Round>)[]): Promise<Round[][]> {
  const out = sides.map(() => [] as Round[]);
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = (i + k) % sides.length;
      out[side].push(await sides[side]());
    }
  }
  return out;
}

/**
 * The peer mock (aimock, a dev dependency) on these fixtures, as its own process.
 * @example
 *   const peer = await startAimock(dir, [{ match: { model: 'm' }, response: { content: 'hi' } }]);
 */
export function startAimock(dir: string, fixtures: unknown[]): Promise<ServerProcess> {
  const file = join(dir, `aimock-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(fixtures));
  return serverProcess([here('./aimock-server.ts'), file], 'aimock');
}

/** "median (min–max)" of a figure over rounds. */
export function spread(rounds: Round[], key: keyof Round, digits = 0): string {
  const xs = rounds.map((r) => r[key]);
  return `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
}
