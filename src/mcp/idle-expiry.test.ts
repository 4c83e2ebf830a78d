import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleExpiry } from './idle-expiry.ts';

describe('IdleExpiry', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function watcher(idleMs: number) {
    const expired: string[] = [];
    return { idle: new IdleExpiry<string>(idleMs, (id) => void expired.push(id)), expired };
  }

  it('expires a session left with nothing open for the idle time, not before', () => {
    const { idle, expired } = watcher(1000);
    idle.watch('a');
    vi.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a']);
    expect(idle.size).toBe(0);
  });

  it('keeps a session with a request or stream open however long, and counts the idle time from when the last one ends', () => {
    const { idle, expired } = watcher(1000);
    idle.watch('a');
    const stream = idle.begin('a');
    const request = idle.begin('a');
    vi.advanceTimersByTime(5000);
    request();
    request(); // a second call must not count as another end
    vi.advanceTimersByTime(5000);
    expect(expired).toEqual([]);
    stream();
    vi.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a']);
  });

  it('forgets sessions that ended otherwise; an end after that does nothing', () => {
    const { idle, expired } = watcher(1000);
    idle.watch('a');
    idle.watch('b');
    const end = idle.begin('a');
    idle.forget('a');
    end();
    idle.clear();
    vi.advanceTimersByTime(10_000);
    expect(expired).toEqual([]);
    expect(idle.begin('unknown')).toBeTypeOf('function');
  });

  it('never expires with 0 or Infinity; caps longer times at what a timer can wait; refuses a negative time', () => {
    for (const ms of [0, Infinity]) {
      const { idle, expired } = watcher(ms);
      idle.watch('a');
      vi.advanceTimersByTime(2 ** 32);
      expect(expired).toEqual([]);
    }
    const { idle, expired } = watcher(2 ** 40);
    idle.watch('a');
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(2 ** 31);
    expect(expired).toEqual(['a']);
    expect(() => new IdleExpiry(-1, () => {})).toThrow(/>= 0, got -1/);
    expect(() => new IdleExpiry(Number.NaN, () => {})).toThrow(/got NaN/);
  });
});
