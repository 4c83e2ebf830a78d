import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsRecorder } from './metrics.ts';
import { openStore } from './store.ts';
import { manualClock, tempDir } from './test-helpers.ts';

const DAY = 86_400_000;

describe('MetricsRecorder', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));
  const setup = () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'm.db');
    const clock = manualClock();
    const db = openStore(path);
    cleanups.unshift(() => db.close());
    return { path, clock, db, metrics: new MetricsRecorder(db, { now: clock.now, retentionDays: 7 }) };
  };

  it('records calls and reports counts, rates, latency and the last error', () => {
    const { metrics } = setup();
    metrics.record({ server: 's', tool: 'a', success: true, latencyMs: 10 });
    metrics.record({ server: 's', tool: 'a', success: false, latencyMs: 30, error: 'boom' });
    metrics.record({ server: 's', tool: 'b', success: true, latencyMs: 5 });
    const [a, b] = metrics.get({ server: 's' });
    expect(a).toMatchObject({ tool: 'a', call_count: 2, success_count: 1, failure_count: 1, success_rate: 0.5, avg_latency_ms: 20, last_error: 'boom' });
    expect(b).toMatchObject({ tool: 'b', call_count: 1, success_rate: 1, last_error: null });
    expect(metrics.top(1)[0].tool).toBe('b');
    expect(metrics.failing(0.9).map((m) => m.tool)).toEqual(['a']);
    expect(metrics.get({ tool: 'b' })).toHaveLength(1);
  });

  it('rolls raw rows older than the retention window into daily aggregates, and queries read both', () => {
    const { metrics, clock, db } = setup();
    const old = clock.now() - 10 * DAY;
    for (let i = 0; i < 5; i++) metrics.record({ server: 's', tool: 'a', success: i !== 0, latencyMs: 10, error: i === 0 ? 'old failure' : undefined, at: old + i });
    metrics.record({ server: 's', tool: 'a', success: true, latencyMs: 40 });
    const before = metrics.get()[0];
    expect(metrics.aggregate()).toBe(5);
    expect(metrics.rawCount()).toBe(1);
    const daily = db.prepare('SELECT * FROM tool_metrics_daily').all() as Array<Record<string, unknown>>;
    expect(daily).toHaveLength(1);
    expect(daily[0]).toMatchObject({ call_count: 5, success_count: 4, failure_count: 1, last_error: 'old failure' });
    const after = metrics.get()[0];
    expect(after).toEqual(before);
    expect(after).toMatchObject({ call_count: 6, success_count: 5, avg_latency_ms: 15, last_error: 'old failure' });
    // A second roll-up into the same day adds to it.
    metrics.record({ server: 's', tool: 'a', success: false, latencyMs: 10, error: 'newer', at: old + 100 });
    metrics.aggregate();
    expect(metrics.get()[0]).toMatchObject({ call_count: 7, failure_count: 2, last_error: 'newer' });
  });

  it('aggregates on start only when the last run is a day old', () => {
    const { metrics, clock } = setup();
    metrics.record({ server: 's', tool: 'a', success: true, latencyMs: 1, at: clock.now() - 8 * DAY });
    expect(metrics.aggregateIfDue()).toBe(1);
    metrics.record({ server: 's', tool: 'a', success: true, latencyMs: 1, at: clock.now() - 8 * DAY });
    expect(metrics.aggregateIfDue()).toBe(0);
    clock.advance(DAY);
    expect(metrics.aggregateIfDue()).toBe(1);
  });

  it('resets by tool, by server, or everything', () => {
    const { metrics, clock } = setup();
    for (const [server, tool] of [['s', 'a'], ['s', 'b'], ['t', 'a']]) metrics.record({ server, tool, success: true, latencyMs: 1 });
    metrics.record({ server: 's', tool: 'a', success: true, latencyMs: 1, at: clock.now() - 30 * DAY });
    metrics.aggregate();
    expect(metrics.reset({ server: 's', tool: 'a' })).toBe(1);
    expect(metrics.get().map((m) => `${m.server}/${m.tool}`)).toEqual(['s/b', 't/a']);
    metrics.reset({ server: 's' });
    expect(metrics.get().map((m) => m.server)).toEqual(['t']);
    metrics.reset();
    expect(metrics.get()).toEqual([]);
  });

  it('persists across a reopen of the store', () => {
    const { metrics, path } = setup();
    for (let i = 0; i < 3000; i++) metrics.record({ server: 's', tool: 'a', success: i % 3 !== 0, latencyMs: 2 });
    metrics.flush();
    const db2 = openStore(path);
    const again = new MetricsRecorder(db2);
    expect(again.get()[0]).toMatchObject({ call_count: 3000, success_count: 2000 });
    db2.close();
  });

  it('commits a batch from record() once its oldest call is flushMs old, however late the timer fires', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'late.db');
    const clock = manualClock();
    const db = openStore(path);
    cleanups.unshift(() => db.close());
    const metrics = new MetricsRecorder(db, { now: clock.now, flushMs: 25 });
    const committed = () => (db.prepare('SELECT COUNT(*) AS n FROM tool_calls').get() as { n: number }).n;
    metrics.record({ server: 's', tool: 'a', success: true, latencyMs: 1 });
    clock.advance(24);
    metrics.record({ server: 's', tool: 'a', success: true, latencyMs: 1 });
    expect(committed()).toBe(0);
    // The event loop is busy: the 25 ms timer has not run, but the next call commits the batch.
    clock.advance(1);
    metrics.record({ server: 's', tool: 'a', success: true, latencyMs: 1 });
    expect(committed()).toBe(3);
  });
});
