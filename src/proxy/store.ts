/**
 * The proxy's SQLite store (node:sqlite, WAL): raw call rows, daily aggregates, tool schemas with
 * their hashes, and embeddings. One file, machine-global by default; tests pass temp paths.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const MIGRATIONS: string[] = [
  `CREATE TABLE IF NOT EXISTS tool_calls (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     server_name TEXT NOT NULL,
     tool_name TEXT NOT NULL,
     success INTEGER NOT NULL,
     latency_ms REAL NOT NULL,
     error TEXT,
     called_at INTEGER NOT NULL
   );
   CREATE INDEX IF NOT EXISTS tool_calls_tool ON tool_calls(server_name, tool_name);
   CREATE INDEX IF NOT EXISTS tool_calls_time ON tool_calls(called_at);
   CREATE TABLE IF NOT EXISTS tool_metrics_daily (
     server_name TEXT NOT NULL,
     tool_name TEXT NOT NULL,
     day TEXT NOT NULL,
     call_count INTEGER NOT NULL,
     success_count INTEGER NOT NULL,
     failure_count INTEGER NOT NULL,
     total_latency_ms REAL NOT NULL,
     last_called_at INTEGER,
     last_success_at INTEGER,
     last_error TEXT,
     last_error_at INTEGER,
     PRIMARY KEY (server_name, tool_name, day)
   );
   CREATE TABLE IF NOT EXISTS tool_schemas (
     server_name TEXT NOT NULL,
     tool_name TEXT NOT NULL,
     description TEXT NOT NULL,
     input_schema TEXT NOT NULL,
     schema_hash TEXT NOT NULL,
     last_schema_change INTEGER NOT NULL,
     last_checked_at INTEGER NOT NULL,
     PRIMARY KEY (server_name, tool_name)
   );
   CREATE TABLE IF NOT EXISTS tool_embeddings (
     server_name TEXT NOT NULL,
     tool_name TEXT NOT NULL,
     model TEXT NOT NULL,
     description_hash TEXT NOT NULL,
     dimensions INTEGER NOT NULL,
     embedding BLOB NOT NULL,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (server_name, tool_name, model)
   );
   CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
];

/**
 * Opens (creating if needed) the store and applies migrations.
 * @example
 *   const db = openStore('/tmp/proxy.db');
 */
export function openStore(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  // WAL: readers never block the writer, and a killed process loses nothing committed.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.exec('BEGIN');
    try {
      db.exec(MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  }
  return db;
}

/** Runs fn inside one transaction. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

export function getMeta(db: DatabaseSync, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: DatabaseSync, key: string, value: string): void {
  db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}
