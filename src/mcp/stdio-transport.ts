/**
 * A stdio client transport that starts the server in its own process group and ends the whole group:
 * servers are often started through wrappers (`sh -c`, npx, uvx) whose children the SDK's
 * StdioClientTransport (which signals only its direct child) leaves running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineGate } from './line-gate.ts';

export interface GroupStdioOptions {
  command: string;
  args?: string[];
  /** Added to the SDK's safe default environment (HOME, PATH, …). */
  env?: Record<string, string>;
  cwd?: string;
  /** After SIGTERM, how long the group gets before SIGKILL. Default 2000 ms. */
  killGraceMs?: number;
  /** Bytes of stderr kept to explain failures. Default 4000. */
  stderrTail?: number;
}

const POLL_MS = 25;

/**
 * Whether any process of group `pgid` is still running. On Linux zombies do not count: orphans are
 * reparented to PID 1, which in a container often never reaps them, and a signal-0 probe sees them.
 */
function groupAlive(pgid: number): boolean {
  if (process.platform === 'linux') {
    let entries: string[];
    try {
      entries = readdirSync('/proc');
    } catch {
      return probeGroup(pgid);
    }
    for (const entry of entries) {
      if (entry.charCodeAt(0) > 57) continue;
      try {
        // /proc/PID/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces, so split after the last ')'.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
      } catch {
        // Gone while we looked.
      }
    }
    return false;
  }
  return probeGroup(pgid);
}

function probeGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    // EPERM: a member exists but belongs to someone else (still alive).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

async function waitGroupGone(pgid: number, ms: () => number): Promise<boolean> {
  const started = Date.now();
  while (groupAlive(pgid)) {
    // Read the grace on every turn: an abort may shorten it while we wait.
    if (Date.now() - started >= ms()) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/**
 * Spawns an MCP server (detached: its own process group) and speaks newline-delimited JSON-RPC with it.
 * close() ends stdin, sends SIGTERM to the group, then SIGKILL after `killGraceMs`.
 * @example
 *   const transport = new GroupStdioTransport({ command: 'npx', args: ['-y', 'some-server'] });
 *   await new Client({ name: 'me', version: '1' }).connect(transport);
 *   await transport.close(); // nothing of the server's group is left
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** After SIGTERM, how long the group gets before SIGKILL; may be lowered while closing. */
  killGraceMs: number;
  private readonly options: GroupStdioOptions;
  private readonly buffer = new ReadBuffer();
  private readonly lines = new LineGate();
  private child?: ChildProcess;
  private closing?: Promise<void>;
  private stderrText = '';
  private closedEmitted = false;

  constructor(options: GroupStdioOptions) {
    this.options = options;
    this.killGraceMs = options.killGraceMs ?? 2000;
  }

  /** The server's pid (also its process group id) once started. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The last bytes the server wrote to stderr. */
  get stderr(): string {
    return this.stderrText;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args ?? [], {
        env: { ...getDefaultEnvironment(), ...this.options.env },
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      const keep = this.options.stderrTail ?? 4000;
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrText = (this.stderrText + chunk.toString('utf8')).slice(-keep);
      });
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      // 'exit', not 'close': a grandchild holding the pipes open must not hide the server's exit.
      child.on('exit', () => this.emitClose());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          const lines = this.lines.take(chunk);
          if (lines === null) return;
          this.buffer.append(lines);
        } catch (error) {
          // A line past the buffer's limit (10 MB): a server gone wrong; end it rather than grow without bound.
          this.onerror?.(error as Error);
          void this.close();
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.closing) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server's whole process group; resolves when nothing of it is left. */
  close(): Promise<void> {
    this.closing ??= this.terminate();
    return this.closing;
  }

  private async terminate(): Promise<void> {
    const child = this.child;
    const pgid = child?.pid;
    if (child && pgid) {
      try {
        child.stdin?.end();
      } catch {
        // Already closed.
      }
      signalGroup(pgid, 'SIGTERM');
      if (!(await waitGroupGone(pgid, () => this.killGraceMs))) {
        signalGroup(pgid, 'SIGKILL');
        await waitGroupGone(pgid, () => 1000);
      }
      // The group scan skips zombies; the direct child stays one until Node reaps it, so wait for that
      // too (bounded), or close() would resolve while a signal-0 probe of its pid still succeeds.
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1000);
          child.once('exit', () => (clearTimeout(timer), resolve()));
        });
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
    this.buffer.clear();
    this.emitClose();
  }

  /** Synchronous SIGKILL of the group, for process-exit paths where nothing async runs. */
  killNow(): void {
    const pgid = this.child?.pid;
    if (pgid) signalGroup(pgid, 'SIGKILL');
  }

  private emitClose(): void {
    if (this.closedEmitted) return;
    this.closedEmitted = true;
    this.onclose?.();
  }
}
