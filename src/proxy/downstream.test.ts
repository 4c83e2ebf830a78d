import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffMs, ServerCircuitBreaker, CircuitOpenError } from './breaker.ts';
import { Downstream, type DownstreamOptions } from './downstream.ts';
import { isAlive, manualClock, stdioEntry, tempDir } from './test-helpers.ts';

const options = (clock = manualClock(), extra: Partial<DownstreamOptions> = {}): DownstreamOptions => ({
  connectionTimeoutMs: 10_000, maxRetries: 3, breakerThreshold: 2, breakerResetMs: 60_000, clock, ...extra,
});

// A command that exits at once: every connection attempt fails.
const broken = { command: process.execPath, args: ['-e', 'process.stderr.write("no luck\\n"); process.exit(7)'] };

describe('backoff and breaker', () => {
  it('backs off 1, 2, 4, 8, 16 s and stays at 16 s', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 16000, 16000, 16000]);
  });

  it('opens after the threshold, half-opens after the reset time, closes on success, re-opens on a failed trial', () => {
    const clock = manualClock();
    const b = new ServerCircuitBreaker({ threshold: 3, resetMs: 1000, clock });
    b.failure(); b.failure();
    expect(b.state).toBe('closed');
    b.failure();
    expect(b.state).toBe('open');
    expect(b.allow()).toBe(false);
    clock.advance(1000);
    expect(b.state).toBe('half-open');
    expect(b.allow()).toBe(true);
    b.failure();
    expect(b.state).toBe('open');
    clock.advance(1000);
    b.success();
    expect(b.state).toBe('closed');
    expect(b.consecutiveFailures).toBe(0);
  });
});

describe('Downstream', () => {
  const open: Downstream[] = [];
  const dirs: Array<() => void> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.close()));
    dirs.splice(0).forEach((cleanup) => cleanup());
  });
  const scratch = (): string => {
    const { dir, cleanup } = tempDir('gw-downstream-');
    dirs.push(cleanup);
    return dir;
  };
  const make = (config: ConstructorParameters<typeof Downstream>[1], opts: DownstreamOptions): Downstream => {
    const d = new Downstream('s', config, opts);
    open.push(d);
    return d;
  };

  it('stays configured until first use, then connects and lists tools', async () => {
    const d = make(stdioEntry('proxy-docs'), options());
    expect(d.info()).toMatchObject({ state: 'configured', circuit: 'closed', connected_at: null, pid: null, transport: 'stdio' });
    const tools = await d.listTools();
    expect(tools.map((t) => t.name)).toContain('search_docs');
    expect(d.info()).toMatchObject({ state: 'connected', last_error: null });
    expect(d.info().connected_at).not.toBeNull();
    expect(isAlive(d.pid as number)).toBe(true);
  });

  it('retries with exponential backoff, then fails and opens the breaker; fails fast while open; half-open trial later', async () => {
    const clock = manualClock();
    const d = make(broken, options(clock, { maxRetries: 3, breakerThreshold: 2 }));
    await expect(d.ensureConnected()).rejects.toThrow(/after 4 attempt\(s\)/);
    expect(clock.sleeps).toEqual([1000, 2000, 4000]);
    expect(d.info()).toMatchObject({ state: 'failed', circuit: 'closed' });
    expect(d.info().last_error).toMatch(/no luck/);
    await expect(d.ensureConnected()).rejects.toThrow(/after 4 attempt/);
    expect(d.info().circuit).toBe('open');
    expect(d.unavailable).toBe(true);
    const sleepsBefore = clock.sleeps.length;
    await expect(d.ensureConnected()).rejects.toBeInstanceOf(CircuitOpenError);
    expect(clock.sleeps.length).toBe(sleepsBefore);
    clock.advance(60_000);
    expect(d.info().circuit).toBe('half-open');
    // Half-open: a single trial, no retries.
    await expect(d.ensureConnected()).rejects.toThrow(/after 1 attempt/);
    expect(d.info().circuit).toBe('open');
  });

  it('gives up on a server that never answers after connection_timeout', async () => {
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    const d = make(silent, options(manualClock(), { connectionTimeoutMs: 300, maxRetries: 1 }));
    await expect(d.ensureConnected()).rejects.toThrow(/timed out after 300 ms/);
  });

  it('closes the child with the connection', async () => {
    const d = make(stdioEntry('proxy-docs'), options());
    await d.ensureConnected();
    const pid = d.pid as number;
    await d.close();
    expect(isAlive(pid)).toBe(false);
    await expect(d.ensureConnected()).rejects.toThrow(/closed/);
  });

  it('reconnects on next use after the server crashed', async () => {
    const d = make(stdioEntry('crash'), options());
    await d.ensureConnected();
    const pid = d.pid;
    await expect(d.callTool('crash', {}, 5000)).rejects.toThrow(/closed/i);
    expect(d.info().state).toBe('failed');
    const result = await d.callTool('echo', { text: 'back' }, 5000);
    expect(result.content).toEqual([{ type: 'text', text: 'back' }]);
    expect(d.pid).not.toBe(pid);
    expect(d.info().state).toBe('connected');
  });

  it('hears tools/list_changed', async () => {
    const changed: string[] = [];
    const d = make(stdioEntry('proxy-docs'), options(manualClock(), { onToolsChanged: (s) => changed.push(s) }));
    await d.callTool('add_tool', { name: 'new_tool', description: 'brand new' }, 5000);
    await expect.poll(() => changed).toEqual(['s']);
    expect((await d.listTools()).map((t) => t.name)).toContain('new_tool');
  });

  it('closes the breaker again when the half-open trial succeeds', async () => {
    const marker = join(scratch(), 'ready');
    // Fails until the marker file exists, then runs the docs fixture.
    const script = `const fs = require('node:fs'); if (!fs.existsSync(${JSON.stringify(marker)})) process.exit(5); import(${JSON.stringify(stdioEntry('proxy-docs').args[0])});`;
    const clock = manualClock();
    const d = make({ command: process.execPath, args: ['-e', script] }, options(clock, { maxRetries: 0, breakerThreshold: 1, breakerResetMs: 30_000 }));
    await expect(d.ensureConnected()).rejects.toThrow(/after 1 attempt/);
    expect(d.info().circuit).toBe('open');
    writeFileSync(marker, 'yes');
    await expect(d.ensureConnected()).rejects.toBeInstanceOf(CircuitOpenError);
    clock.advance(30_000);
    expect(d.info().circuit).toBe('half-open');
    await d.ensureConnected();
    expect(d.info()).toMatchObject({ state: 'connected', circuit: 'closed', last_error: null, retry_at: null });
  });

  it('connects once when many first calls arrive together', async () => {
    const log = join(scratch(), 'starts');
    // Every process start leaves a line in the log.
    const script = `require('node:fs').appendFileSync(${JSON.stringify(log)}, process.pid + '\\n'); import(${JSON.stringify(stdioEntry('proxy-docs').args[0])});`;
    const d = make({ command: process.execPath, args: ['-e', script] }, options());
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => d.callTool('resolve_library_id', { name: `p${i}` }, 5000)));
    expect(results.map((r) => (r.content[0] as { text: string }).text)).toEqual(Array.from({ length: 20 }, (_, i) => `/lib/p${i}`));
    expect(d.info().state).toBe('connected');
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([String(d.pid)]);
  });
});
