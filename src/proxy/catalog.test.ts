import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCatalog } from './catalog.ts';
import { computeSchemaHash, descriptionHash, stableStringify } from './hashing.ts';
import { openStore } from './store.ts';
import { manualClock, tempDir } from './test-helpers.ts';

const tool = (name: string, description = `does ${name}`, props: Record<string, unknown> = { path: { type: 'string' } }) =>
  ({ name, description, inputSchema: { type: 'object', properties: props } });

describe('schema hashes', () => {
  it('is stable: same input, same hash, whatever the key order', () => {
    const a = computeSchemaHash({ name: 'x', description: 'd', inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } } });
    const b = computeSchemaHash({ name: 'x', description: 'd', inputSchema: { properties: { b: { type: 'number' }, a: { type: 'string' } }, type: 'object' } });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(stableStringify({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('changes with the name, the description or the schema', () => {
    const base = computeSchemaHash(tool('x'));
    expect(computeSchemaHash(tool('y', 'does x'))).not.toBe(base);
    expect(computeSchemaHash(tool('x', 'other'))).not.toBe(base);
    expect(computeSchemaHash(tool('x', 'does x', { path: { type: 'number' } }))).not.toBe(base);
    // The embedded text ignores parameter types, so a type change re-hashes the schema but not the embedding.
    expect(descriptionHash(tool('x', 'does x', { path: { type: 'number' } }))).toBe(descriptionHash(tool('x')));
  });
});

describe('ToolCatalog (incremental refresh)', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  it('reports added, updated, removed and unchanged, keeps last_schema_change, and persists', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'c.db');
    const clock = manualClock();
    const db = openStore(path);
    const catalog = new ToolCatalog(db, clock.now);
    expect(catalog.apply('s', [tool('a'), tool('b'), tool('c')])).toEqual({ server: 's', added: ['a', 'b', 'c'], updated: [], removed: [], unchanged: [] });
    const t0 = clock.now();
    clock.advance(60_000);
    const summary = catalog.apply('s', [tool('a'), tool('b', 'now different'), tool('d')]);
    expect(summary).toEqual({ server: 's', added: ['d'], updated: ['b'], removed: ['c'], unchanged: ['a'] });
    expect(catalog.get('s', 'a')?.lastSchemaChange).toBe(t0);
    expect(catalog.get('s', 'b')?.lastSchemaChange).toBe(t0 + 60_000);
    expect(catalog.getHash('s', 'b')).toBe(computeSchemaHash(tool('b', 'now different')));
    expect(Object.keys(catalog.getAllHashes('s')).sort()).toEqual(['a', 'b', 'd']);
    expect(catalog.apply('s', [tool('a'), tool('b', 'now different'), tool('d')], true).updated).toEqual(['a', 'b', 'd']);
    db.close();
    const db2 = openStore(path);
    const reopened = new ToolCatalog(db2);
    expect(reopened.tools('s').map((t) => t.name)).toEqual(['a', 'b', 'd']);
    expect(reopened.get('s', 'b')?.description).toBe('now different');
    expect(reopened.apply('s', [tool('a'), tool('b', 'now different'), tool('d')]).unchanged).toEqual(['a', 'b', 'd']);
    db2.close();
  });

  it('keeps the MCP hints search reads (readOnlyHint, destructiveHint), persisted, and notices when they change', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'hints.db');
    // The store's own schema has no annotations column: the catalog adds it on open, once.
    const db = openStore(path);
    const columns = () => (db.prepare('PRAGMA table_info(tool_schemas)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns()).not.toContain('annotations');
    const catalog = new ToolCatalog(db);
    expect(columns()).toContain('annotations');
    const drop = { ...tool('drop'), annotations: { destructiveHint: true, title: 'Drop', openWorldHint: false } };
    expect(catalog.apply('s', [drop, tool('read')]).added).toEqual(['drop', 'read']);
    expect(catalog.get('s', 'drop')?.annotations).toEqual({ destructiveHint: true });
    expect(catalog.get('s', 'read')?.annotations).toBeUndefined();
    expect(catalog.apply('s', [{ ...drop, annotations: { destructiveHint: false } }, tool('read')]).updated).toEqual(['drop']);
    db.close();
    const reopened = openStore(path);
    expect(new ToolCatalog(reopened).get('s', 'drop')?.annotations).toEqual({ destructiveHint: false });
    reopened.close();
  });
});
