/**
 * The tool catalog: every downstream tool's schema and hash, persisted so listings and search work
 * before a server is connected, and so a refresh knows what changed (seed Phase 5).
 */
import type { DatabaseSync } from 'node:sqlite';
import { computeSchemaHash, type ToolDefinition } from './hashing.ts';
import type { ToolHints } from './search/actions.ts';
import { transaction } from './store.ts';

/** A tool as a server lists it: its definition and, when the server gives them, its MCP annotations. */
export type CatalogInput = ToolDefinition & { annotations?: ToolHints };

export interface CatalogTool {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  hash: string;
  /** MCP annotations (readOnlyHint, destructiveHint): search keeps destructive tools off the top. */
  annotations?: ToolHints;
  /** Epoch ms of the last time this tool's hash changed (or it appeared). */
  lastSchemaChange: number;
}

export interface RefreshSummary {
  server: string;
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: string[];
}

interface Row {
  server_name: string;
  tool_name: string;
  description: string;
  input_schema: string;
  schema_hash: string;
  last_schema_change: number;
  annotations: string | null;
}

/** Only the hints search reads, so nothing else a server sends is stored. */
function hintsOf(value: unknown): ToolHints | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { readOnlyHint, destructiveHint } = value as Record<string, unknown>;
  const hints: ToolHints = {};
  if (typeof readOnlyHint === 'boolean') hints.readOnlyHint = readOnlyHint;
  if (typeof destructiveHint === 'boolean') hints.destructiveHint = destructiveHint;
  return Object.keys(hints).length ? hints : undefined;
}

const fromRow = (r: Row): CatalogTool => ({
  server: r.server_name,
  name: r.tool_name,
  description: r.description,
  inputSchema: JSON.parse(r.input_schema) as Record<string, unknown>,
  hash: r.schema_hash,
  ...(r.annotations ? { annotations: hintsOf(JSON.parse(r.annotations)) } : {}),
  lastSchemaChange: r.last_schema_change,
});

/**
 * Stored tool schemas and their hashes, with an in-memory copy.
 * @example
 *   const catalog = new ToolCatalog(db);
 *   const summary = catalog.apply('fs', toolsFromServer);
 */
export class ToolCatalog {
  private readonly db: DatabaseSync;
  private readonly now: () => number;
  private readonly byServer = new Map<string, Map<string, CatalogTool>>();
  /** The plain JSON each tool last arrived as: an identical arrival needs no re-hash. */
  private readonly lastRaw = new Map<string, string>();

  constructor(db: DatabaseSync, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
    // Stores made before annotations were kept gain the column (NULL: none known).
    const columns = db.prepare('PRAGMA table_info(tool_schemas)').all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'annotations')) db.exec('ALTER TABLE tool_schemas ADD COLUMN annotations TEXT');
    const rows = db.prepare('SELECT * FROM tool_schemas ORDER BY server_name, tool_name').all() as unknown as Row[];
    for (const row of rows) this.serverMap(row.server_name).set(row.tool_name, fromRow(row));
  }

  private serverMap(server: string): Map<string, CatalogTool> {
    let map = this.byServer.get(server);
    if (!map) { map = new Map(); this.byServer.set(server, map); }
    return map;
  }

  /** Whether anything is known about this server's tools. */
  has(server: string): boolean {
    return (this.byServer.get(server)?.size ?? 0) > 0;
  }

  /** The servers whose tools are known. */
  servers(): string[] {
    return [...this.byServer].filter(([, m]) => m.size > 0).map(([s]) => s);
  }

  tools(server?: string): CatalogTool[] {
    if (server !== undefined) return [...(this.byServer.get(server)?.values() ?? [])];
    return [...this.byServer.values()].flatMap((m) => [...m.values()]);
  }

  get(server: string, tool: string): CatalogTool | undefined {
    return this.byServer.get(server)?.get(tool);
  }

  getHash(server: string, tool: string): string | undefined {
    return this.get(server, tool)?.hash;
  }

  getAllHashes(server: string): Record<string, string> {
    return Object.fromEntries(this.tools(server).map((t) => [t.name, t.hash]));
  }

  /**
   * Replaces a server's tool list, writing only what changed. `force` treats every tool as updated.
   */
  apply(server: string, tools: CatalogInput[], force = false): RefreshSummary {
    const summary: RefreshSummary = { server, added: [], updated: [], removed: [], unchanged: [] };
    const current = this.serverMap(server);
    const now = this.now();
    const seen = new Set<string>();
    const upsert = this.db.prepare(`INSERT INTO tool_schemas(server_name, tool_name, description, input_schema, schema_hash, last_schema_change, last_checked_at, annotations)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(server_name, tool_name) DO UPDATE SET description = excluded.description,
      input_schema = excluded.input_schema, schema_hash = excluded.schema_hash, last_schema_change = excluded.last_schema_change,
      last_checked_at = excluded.last_checked_at, annotations = excluded.annotations`);
    const remove = this.db.prepare('DELETE FROM tool_schemas WHERE server_name = ? AND tool_name = ?');
    transaction(this.db, () => {
      for (const def of tools) {
        seen.add(def.name);
        const old = current.get(def.name);
        const key = `${server}\u0000${def.name}`;
        const hints = hintsOf(def.annotations);
        const raw = JSON.stringify([def.description ?? '', def.inputSchema ?? {}, hints ?? null]);
        if (old && !force && this.lastRaw.get(key) === raw) { summary.unchanged.push(def.name); continue; }
        const hash = computeSchemaHash(def);
        this.lastRaw.set(key, raw);
        const sameHints = JSON.stringify(old?.annotations ?? null) === JSON.stringify(hints ?? null);
        if (old && old.hash === hash && sameHints && !force) { summary.unchanged.push(def.name); continue; }
        (old ? summary.updated : summary.added).push(def.name);
        const tool: CatalogTool = {
          server, name: def.name, description: def.description ?? '', inputSchema: def.inputSchema ?? { type: 'object' },
          hash, ...(hints ? { annotations: hints } : {}), lastSchemaChange: old && old.hash === hash ? old.lastSchemaChange : now,
        };
        current.set(def.name, tool);
        upsert.run(server, tool.name, tool.description, JSON.stringify(tool.inputSchema), hash, tool.lastSchemaChange, now, hints ? JSON.stringify(hints) : null);
      }
      for (const name of [...current.keys()]) {
        if (seen.has(name)) continue;
        current.delete(name);
        this.lastRaw.delete(`${server}\u0000${name}`);
        remove.run(server, name);
        summary.removed.push(name);
      }
    });
    return summary;
  }

  /** Forgets a server no longer configured. */
  dropServer(server: string): void {
    this.byServer.delete(server);
    this.db.prepare('DELETE FROM tool_schemas WHERE server_name = ?').run(server);
  }
}
