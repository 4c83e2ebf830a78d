/**
 * Per-tool call metrics (seed Phase 1): every call is a raw row; rows older than the retention
 * window are rolled into daily aggregates kept forever; every query reads both tables.
 * Writes are buffered and committed in one transaction per batch, which is what makes
 * tens of thousands of recorded calls per second possible on SQLite.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { getMeta, setMeta, transaction } from './store.ts';

export interface CallRecord {
  server: string;
  tool: string;
  success: boolean;
  latencyMs: number;
  error?: string;
  /** Epoch ms; defaults to the clock. */
  at?: number;
}

export interface ToolMetrics {
  server: string;
  tool: string;
  call_count: number;
  success_count: number;
  failure_count: number;
  success_rate: number;
  avg_latency_ms: number;
  last_called_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
}

export interface MetricsFilter {
  server?: string;
  tool?: string;
}

export interface MetricsOptions {
  retentionDays?: number;
  /** Rows buffered before a synchronous flush. */
  batchSize?: number;
  /** Longest time a recorded call waits in memory before its commit (default 25 ms). */
  flushMs?: number;
  now?: () => number;
}

const DAY_MS = 86_400_000;

interface Row {
  server_name: string;
  tool_name: string;
  calls: number;
  ok: number;
  lat: number;
  last_called: number | null;
  last_ok: number | null;
}

function where(filter: MetricsFilter, extra: string[] = []): { sql: string; params: string[] } {
  const clauses = [...extra];
  const params: string[] = [];
  if (filter.server !== undefined) { clauses.push('server_name = ?'); params.push(filter.server); }
  if (filter.tool !== undefined) { clauses.push('tool_name = ?'); params.push(filter.tool); }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const iso = (ms: number | null): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/**
 * Records and queries tool call metrics.
 * @example
 *   const metrics = new MetricsRecorder(openStore(path));
 *   metrics.record({ server: 'fs', tool: 'read_file', success: true, latencyMs: 3 });
 *   metrics.flush();
 *   metrics.get({ server: 'fs' });
 */
export class MetricsRecorder {
  readonly retentionDays: number;
  private readonly db: DatabaseSync;
  private readonly batchSize: number;
  private readonly now: () => number;
  private readonly insert: StatementSync;
  private pending: CallRecord[] = [];
  private scheduled: NodeJS.Timeout | undefined;
  /** When the oldest buffered call arrived (meaningful while a flush is scheduled). */
  private pendingSince = Infinity;
  private readonly flushMs: number;

  constructor(db: DatabaseSync, options: MetricsOptions = {}) {
    this.db = db;
    this.retentionDays = options.retentionDays ?? 7;
    this.batchSize = options.batchSize ?? 2000;
    this.now = options.now ?? Date.now;
    this.flushMs = options.flushMs ?? 25;
    this.insert = db.prepare('INSERT INTO tool_calls(server_name, tool_name, success, latency_ms, error, called_at) VALUES (?, ?, ?, ?, ?, ?)');
  }

  /**
   * Buffers one call; committed within flushMs or as soon as the batch is full. Committing many calls
   * per transaction is what makes recording cheap. Under load a timer fires late (the event loop is
   * busy), so each call also commits the batch once its oldest call is flushMs old: a killed process
   * loses at most the calls of the last flushMs, plus any stretch in which the event loop was blocked.
   */
  record(call: CallRecord): void {
    const now = this.now();
    this.pending.push(call.at === undefined ? { ...call, at: now } : call);
    if (this.pending.length >= this.batchSize || now - this.pendingSince >= this.flushMs) this.flush();
    else if (!this.scheduled) {
      this.pendingSince = now;
      this.scheduled = setTimeout(() => this.flush(), this.flushMs);
      this.scheduled.unref();
    }
  }

  /** Commits every buffered call in one transaction. */
  flush(): void {
    if (this.scheduled) { clearTimeout(this.scheduled); this.scheduled = undefined; }
    this.pendingSince = Infinity;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    transaction(this.db, () => {
      for (const c of batch) this.insert.run(c.server, c.tool, c.success ? 1 : 0, c.latencyMs, c.error ?? null, c.at as number);
    });
  }

  /** Metrics per tool, from raw rows and daily aggregates together. */
  get(filter: MetricsFilter = {}): ToolMetrics[] {
    this.flush();
    const raw = where(filter);
    const rows = this.db.prepare(`
      WITH combined AS (
        SELECT server_name, tool_name, COUNT(*) AS calls, SUM(success) AS ok, SUM(latency_ms) AS lat,
               MAX(called_at) AS last_called, MAX(CASE WHEN success = 1 THEN called_at END) AS last_ok
          FROM tool_calls ${raw.sql} GROUP BY server_name, tool_name
        UNION ALL
        SELECT server_name, tool_name, SUM(call_count), SUM(success_count), SUM(total_latency_ms),
               MAX(last_called_at), MAX(last_success_at)
          FROM tool_metrics_daily ${raw.sql} GROUP BY server_name, tool_name)
      SELECT server_name, tool_name, SUM(calls) AS calls, SUM(ok) AS ok, SUM(lat) AS lat,
             MAX(last_called) AS last_called, MAX(last_ok) AS last_ok
        FROM combined GROUP BY server_name, tool_name ORDER BY server_name, tool_name`)
      .all(...raw.params, ...raw.params) as unknown as Row[];
    const errors = this.lastErrors(filter);
    return rows.map((r) => ({
      server: r.server_name,
      tool: r.tool_name,
      call_count: r.calls,
      success_count: r.ok,
      failure_count: r.calls - r.ok,
      success_rate: r.calls ? r.ok / r.calls : 0,
      avg_latency_ms: r.calls ? r.lat / r.calls : 0,
      last_called_at: iso(r.last_called),
      last_success_at: iso(r.last_ok),
      last_error: errors.get(`${r.server_name}\u0000${r.tool_name}`) ?? null,
    }));
  }

  private lastErrors(filter: MetricsFilter): Map<string, string> {
    const raw = where(filter, ['success = 0']);
    const daily = where(filter, ['last_error IS NOT NULL']);
    // SQLite's bare-column rule: with a single MAX(), the other columns come from that row.
    const rows = this.db.prepare(`
      SELECT server_name, tool_name, error, MAX(at) AS at FROM (
        SELECT server_name, tool_name, error, called_at AS at FROM tool_calls ${raw.sql}
        UNION ALL
        SELECT server_name, tool_name, last_error, last_error_at FROM tool_metrics_daily ${daily.sql})
      GROUP BY server_name, tool_name`).all(...raw.params, ...daily.params) as Array<{ server_name: string; tool_name: string; error: string | null }>;
    return new Map(rows.filter((r) => r.error !== null).map((r) => [`${r.server_name}\u0000${r.tool_name}`, r.error as string]));
  }

  /** Most reliable tools first. */
  top(limit = 10, minCalls = 1): ToolMetrics[] {
    return this.get()
      .filter((m) => m.call_count >= minCalls)
      .sort((a, b) => b.success_rate - a.success_rate || b.call_count - a.call_count)
      .slice(0, limit);
  }

  /** Tools whose success rate is below threshold, worst first. */
  failing(threshold = 0.5, minCalls = 1): ToolMetrics[] {
    return this.get()
      .filter((m) => m.call_count >= minCalls && m.success_rate < threshold)
      .sort((a, b) => a.success_rate - b.success_rate || b.call_count - a.call_count);
  }

  /** Deletes raw and aggregated metrics matching the filter; returns the raw rows deleted. */
  reset(filter: MetricsFilter = {}): number {
    this.flush();
    const w = where(filter);
    return transaction(this.db, () => {
      const n = Number(this.db.prepare(`DELETE FROM tool_calls ${w.sql}`).run(...w.params).changes);
      this.db.prepare(`DELETE FROM tool_metrics_daily ${w.sql}`).run(...w.params);
      return n;
    });
  }

  /** Rolls raw rows older than the retention window into daily aggregates; returns rows rolled. */
  aggregate(): number {
    this.flush();
    const now = this.now();
    const cutoff = now - this.retentionDays * DAY_MS;
    const rolled = transaction(this.db, () => {
      this.db.prepare(`
        INSERT INTO tool_metrics_daily(server_name, tool_name, day, call_count, success_count, failure_count,
                                       total_latency_ms, last_called_at, last_success_at, last_error, last_error_at)
        SELECT server_name, tool_name, date(called_at / 1000, 'unixepoch') AS day, COUNT(*), SUM(success),
               COUNT(*) - SUM(success), SUM(latency_ms), MAX(called_at),
               MAX(CASE WHEN success = 1 THEN called_at END),
               (SELECT error FROM tool_calls e WHERE e.server_name = t.server_name AND e.tool_name = t.tool_name
                  AND e.success = 0 AND e.called_at < ?1 AND date(e.called_at / 1000, 'unixepoch') = date(t.called_at / 1000, 'unixepoch')
                ORDER BY e.called_at DESC LIMIT 1),
               MAX(CASE WHEN success = 0 THEN called_at END)
          FROM tool_calls t WHERE called_at < ?1 GROUP BY server_name, tool_name, day
        ON CONFLICT(server_name, tool_name, day) DO UPDATE SET
          call_count = call_count + excluded.call_count,
          success_count = success_count + excluded.success_count,
          failure_count = failure_count + excluded.failure_count,
          total_latency_ms = total_latency_ms + excluded.total_latency_ms,
          last_called_at = max(coalesce(last_called_at, 0), coalesce(excluded.last_called_at, 0)),
          last_success_at = nullif(max(coalesce(last_success_at, 0), coalesce(excluded.last_success_at, 0)), 0),
          last_error = CASE WHEN coalesce(excluded.last_error_at, 0) >= coalesce(last_error_at, 0) AND excluded.last_error IS NOT NULL
                            THEN excluded.last_error ELSE last_error END,
          last_error_at = nullif(max(coalesce(last_error_at, 0), coalesce(excluded.last_error_at, 0)), 0)`).run(cutoff);
      return Number(this.db.prepare('DELETE FROM tool_calls WHERE called_at < ?').run(cutoff).changes);
    });
    setMeta(this.db, 'metrics_aggregated_at', String(now));
    return rolled;
  }

  /** Aggregates when the last run is more than a day old (the daemon-start check of the seed). */
  aggregateIfDue(): number {
    const last = Number(getMeta(this.db, 'metrics_aggregated_at') ?? 0);
    return this.now() - last >= DAY_MS ? this.aggregate() : 0;
  }

  /** Raw rows still held (for tests and diagnostics). */
  rawCount(): number {
    this.flush();
    return Number((this.db.prepare('SELECT COUNT(*) AS n FROM tool_calls').get() as { n: number }).n);
  }
}
