import { describe, expect, it } from 'vitest';
import { AWKWARD_NAMES } from '../../fixtures/servers/awkward-names.ts';
import { candidateName, NAME_RULES, ToolNameMap, type ProviderName } from './tool-names.ts';

const PROVIDERS: ProviderName[] = ['openai', 'anthropic', 'gemini', 'azure-openai', 'bedrock'];

describe('candidateName', () => {
  it('namespaces server.tool as server_tool and sanitizes per provider', () => {
    expect(candidateName('stdio', 'list_tables', 'openai')).toBe('stdio_list_tables');
    expect(candidateName('db', 'files.read', 'openai')).toBe('db_files_read');
    expect(candidateName('db', 'files.read', 'gemini')).toBe('db_files.read');
    expect(candidateName('db', 'read file', 'anthropic')).toBe('db_read_file');
    expect(candidateName('db', 'données_📁', 'openai')).toBe('db_donnees_');
    // Azure OpenAI names as OpenAI does; Bedrock's rule is `^[a-zA-Z0-9_-]{1,64}$` too.
    expect(candidateName('db', 'files.read', 'azure-openai')).toBe('db_files_read');
    expect(candidateName('9s', 'files:read', 'bedrock')).toBe('9s_files_read');
  });

  it('prefixes names Gemini would refuse to start with', () => {
    expect(candidateName('9s', 'x', 'gemini')).toBe('_9s_x');
    expect(candidateName('9s', 'x', 'openai')).toBe('9s_x');
  });

  it('shortens long names to 64 with a deterministic hash of the original', () => {
    const long = 'a'.repeat(90);
    const one = candidateName('srv', long, 'openai');
    expect(one).toHaveLength(64);
    expect(one).toMatch(/^srv_a+_[0-9a-f]{8}$/);
    expect(candidateName('srv', long, 'openai')).toBe(one);
    expect(candidateName('srv', `${long}b`, 'openai')).not.toBe(one);
  });
});

describe('ToolNameMap', () => {
  const awkward = AWKWARD_NAMES.map((tool) => ({ server: 'odd', tool }));

  it.each(PROVIDERS)('gives every awkward tool a valid, unique %s name and maps it back', (provider) => {
    const map = new ToolNameMap(provider, [...awkward, { server: 'db', tool: 'query' }]);
    const names = map.names();
    expect(new Set(names).size).toBe(awkward.length + 1);
    for (const name of names) expect(name).toMatch(NAME_RULES[provider].valid);
    for (const ref of [...awkward, { server: 'db', tool: 'query' }]) {
      expect(map.fromProvider(map.toProvider(ref.server, ref.tool))).toEqual(ref);
    }
  });

  it('lets a name that needs no change keep it, and records who was renamed', () => {
    const map = new ToolNameMap('openai', [
      { server: 's', tool: 'get data' },
      { server: 's', tool: 'get.data' },
      { server: 's', tool: 'get_data' },
    ]);
    expect(map.toProvider('s', 'get_data')).toBe('s_get_data');
    expect(map.toProvider('s', 'get data')).toMatch(/^s_get_data_[0-9a-f]{8}$/);
    expect(map.toProvider('s', 'get.data')).toMatch(/^s_get_data_[0-9a-f]{8}$/);
    expect(map.collisions.map((c) => c.renamed).sort()).toEqual(['s.get data', 's.get.data']);
    expect(map.collisions.every((c) => c.keptBy === 's.get_data')).toBe(true);
  });

  it('is independent of discovery order', () => {
    const a = new ToolNameMap('openai', awkward);
    const b = new ToolNameMap('openai', [...awkward].reverse());
    for (const ref of awkward) expect(a.toProvider(ref.server, ref.tool)).toBe(b.toProvider(ref.server, ref.tool));
  });

  it('resolves collisions across servers (a_b.c vs a.b_c) without overriding either', () => {
    const map = new ToolNameMap('anthropic', [
      { server: 'a_b', tool: 'c' },
      { server: 'a', tool: 'b_c' },
    ]);
    expect(map.toProvider('a', 'b_c')).not.toBe(map.toProvider('a_b', 'c'));
    expect(map.fromProvider(map.toProvider('a', 'b_c'))).toEqual({ server: 'a', tool: 'b_c' });
    expect(map.collisions).toHaveLength(1);
  });

  it('returns undefined for names the model made up and throws for unknown MCP tools', () => {
    const map = new ToolNameMap('openai', [{ server: 'db', tool: 'query' }]);
    expect(map.fromProvider('db_drop_everything')).toBeUndefined();
    expect(() => map.toProvider('db', 'nope')).toThrow(/no tool "nope" on server "db"/);
  });
});
