// Every tool schema of two third-party MCP servers from npm, normalized for each provider, checked
// against the rules those providers enforce.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from './mcp-manager.ts';
import { normalizeSchema, strictCompatible } from './schema-normalize.ts';
import { parseServerConfig } from './server-config.ts';

const GEMINI_KEYS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
]);

type Node = Record<string, unknown>;
/** Visits every schema node (not property-name maps). */
function walk(node: unknown, visit: (n: Node) => void): void {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return;
  const n = node as Node;
  visit(n);
  if (n.properties && typeof n.properties === 'object') Object.values(n.properties).forEach((p) => walk(p, visit));
  if (n.items) walk(n.items, visit);
  if (Array.isArray(n.anyOf)) n.anyOf.forEach((b) => walk(b, visit));
}

let mcp: McpManager;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gw-schemas-'));
  const entry = (pkg: string) => join(process.cwd(), `node_modules/@modelcontextprotocol/${pkg}/dist/index.js`);
  mcp = await McpManager.connect(
    parseServerConfig({ mcpServers: { fs: { command: process.execPath, args: [entry('server-filesystem'), dir] }, everything: { command: process.execPath, args: [entry('server-everything')] } } }),
    { timeoutMs: 10_000 },
  );
});
afterAll(async () => {
  await mcp?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('schemas of @modelcontextprotocol/server-filesystem and server-everything', () => {
  it('connected to both and found their tools', () => {
    expect(mcp.failures).toEqual([]);
    expect(new Set(mcp.tools.map((t) => t.server))).toEqual(new Set(['fs', 'everything']));
    expect(mcp.tools.length).toBeGreaterThan(15);
  });

  it('gemini: only accepted keywords, no $ref, arrays with items, required within properties', () => {
    for (const tool of mcp.tools) {
      const out = normalizeSchema(tool.inputSchema, 'gemini');
      expect(out.type, tool.name).toBe('object');
      walk(out, (n) => {
        for (const key of Object.keys(n)) expect(GEMINI_KEYS.has(key), `${tool.server}.${tool.name}: ${key}`).toBe(true);
        if (n.type === 'array') expect(n.items, `${tool.name} array items`).toBeTypeOf('object');
        if (Array.isArray(n.required)) for (const r of n.required) expect(Object.keys((n.properties ?? {}) as object)).toContain(r);
        if (typeof n.type !== 'undefined') expect(typeof n.type, `${tool.name} type`).toBe('string');
        if (Array.isArray(n.enum)) expect(n.enum.every((v) => typeof v === 'string')).toBe(true);
      });
    }
  });

  it('openai strict: where strict applies, every object is closed and fully required', () => {
    let strictCount = 0;
    for (const tool of mcp.tools) {
      if (!strictCompatible(tool.inputSchema)) continue;
      strictCount++;
      walk(normalizeSchema(tool.inputSchema, 'openai', { strict: true }), (n) => {
        if (n.properties) {
          expect(n.additionalProperties, tool.name).toBe(false);
          expect([...(n.required as string[])].sort()).toEqual(Object.keys(n.properties as object).sort());
        }
        expect('default' in n).toBe(false);
      });
    }
    expect(strictCount).toBeGreaterThan(5);
  });

  it('anthropic and openai: object roots with properties, nothing dropped', () => {
    for (const tool of mcp.tools) {
      for (const provider of ['anthropic', 'openai'] as const) {
        const out = normalizeSchema(tool.inputSchema, provider);
        expect(out).toMatchObject({ type: 'object', properties: expect.any(Object) });
        expect(Object.keys(out.properties as object).sort()).toEqual(Object.keys((tool.inputSchema.properties ?? {}) as object).sort());
      }
    }
  });
});
