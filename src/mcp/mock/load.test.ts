import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioLoadError } from '../../scenario/loader.ts';
import { mcpScenario } from './builder.ts';
import { renderMCPScenarioJsonSchema } from './json-schema.ts';
import { loadMCPScenario, MCPScenarioError, parseMCPScenario, parseMCPScenarioText } from './load.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-mcp-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function issuesOf(text: string): string[] {
  return parseMCPScenarioText(text, 'x.json').issues.map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`);
}

describe('loading MCP scenarios', () => {
  it('names line, column, JSON path and what was expected', () => {
    const text = ['{', '  "name": "x",', '  "tools": [', '    { "name": "t", "answers": [{ "latencyMs": -1, "content": [{ "type": "img" }] }] }', '  ],', '  "after": [{ "calls": 1, "tool": "missing" }]', '}'].join('\n');
    expect(issuesOf(text)).toEqual([
      '4:34 tools[0].answers[0].latencyMs: expected a number >= 0, got -1',
      '4:65 tools[0].answers[0].content[0].type: expected one of "text", "image", "audio", "resource", "resource_link", got "img"',
    ]);
    expect(issuesOf('{ "name": "x", "tools": [{ "name": "t", "inputSchema": { "properties": {} } }] }')).toEqual(['1:41 tools[0].inputSchema.type: expected "object" (MCP tool arguments are objects), got nothing']);
    const cross = issuesOf('{ "name": "x", "tools": [{ "name": "t" }, { "name": "t" }], "after": [{ "calls": 1, "tool": "u" }] }');
    expect(cross).toEqual([
      '1:45 tools[1].name: duplicate tool name "t" (also tools[0])',
      '1:85 after[0].tool: no tool named "u" in tools',
    ]);
  });

  it('checks regexes, JSON paths, templates, and results mixed with protocol errors', () => {
    const issues = issuesOf(
      JSON.stringify({
        name: 'x',
        tools: [{ name: 't', answers: [{ match: { arguments: { q: { regex: '(' } }, jsonPath: { 'a.b': 1 } }, error: { code: 1, message: 'm' }, text: 'x' }] }],
        resourceTemplates: [{ uriTemplate: 'test://{', name: 'r' }],
      }),
    );
    expect(issues.map((i) => i.replace(/^\S+ /, ''))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tools\[0\]\.answers\[0\]\.match\.arguments\.q\.regex: expected a valid regular expression/),
        expect.stringMatching(/^tools\[0\]\.answers\[0\]\.match\.jsonPath\["a\.b"\]: expected a JSON path/),
        expect.stringMatching(/^tools\[0\]\.answers\[0\]\.error: an answer is either a protocol error or a result/),
        expect.stringMatching(/^resourceTemplates\[0\]\.uriTemplate: expected an RFC 6570 URI template/),
      ]),
    );
  });

  it('reports invalid JSON at its position and a missing file by name', () => {
    expect(issuesOf('{\n  "name": "x",\n}')).toEqual([expect.stringMatching(/^3:1 : invalid JSON: trailing comma/)]);
    expect(() => loadMCPScenario(join(dir, 'none.json'))).toThrow(ScenarioLoadError);
    expect(() => loadMCPScenario(join(dir, 'none.json'))).toThrow(/none\.json: no such file/);
  });

  it('throws MCPScenarioError for objects, with paths', () => {
    expect(() => parseMCPScenario({ name: 'x', tools: [{ answers: [] }] })).toThrow(MCPScenarioError);
    expect(() => parseMCPScenario({ name: 'x', tools: [{ answers: [] }] })).toThrow(/tools\[0\]\.name: missing; expected a string/);
    expect(() => parseMCPScenario([])).toThrow(/expected an MCP scenario object/);
  });

  it('the builder produces the same objects as the JSON file', () => {
    const built = mcpScenario('flaky')
      .serverInfo({ name: 'fixture-flaky', version: '1.0.0' })
      .tool('fetch_data', { description: 'Fetch the record with the given key. The backend is unreliable.', inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } }, (t) =>
        t.isError('backend unavailable').times(2).next().always().text('{"key":"{{key}}","value":"value-of-{{key}}"}'),
      )
      .build();
    expect(built).toEqual(loadMCPScenario('fixtures/mcp/flaky.json'));
    const listChanged = mcpScenario('list-changed')
      .tool('search', { description: 'Search (v1).', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }, (t) => t.always().text('v1 results for {{q}}'))
      .tool('search_v2', { description: 'Search (v2), listed after the first call.', hidden: true, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }, (t) => t.always().text('v2 results for {{q}}'))
      .after(1, { tools: { show: ['search_v2'], hide: ['search'] } })
      .build();
    expect(listChanged).toEqual(loadMCPScenario('fixtures/mcp/list-changed.json'));
  });
});

describe('schema/mcp-scenario.schema.json', () => {
  const schema = JSON.parse(readFileSync('schema/mcp-scenario.schema.json', 'utf8'));

  it('is up to date with the zod schema (npm run schema)', () => {
    expect(readFileSync('schema/mcp-scenario.schema.json', 'utf8')).toBe(renderMCPScenarioJsonSchema());
  });

  it('accepts every fixture under fixtures/mcp, each pointing its $schema at it, and rejects a typo', () => {
    const validate = new Ajv({ strict: false }).compile(schema);
    const files = readdirSync('fixtures/mcp').filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) {
      const json = JSON.parse(readFileSync(join('fixtures/mcp', f), 'utf8'));
      expect(validate(json), `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(json.$schema, f).toBe('../../schema/mcp-scenario.schema.json');
    }
    expect(validate({ name: 'x', tools: [{ name: 't', answers: [{ txt: 'x' }] }] })).toBe(false);
  });

  it('describes fields for editors', () => {
    writeFileSync(join(dir, 'probe.json'), '{}');
    expect(schema.title).toBe('ghostwire MCP scenario file');
    expect(schema.properties.tools.description).toMatch(/tools\/list/);
  });
});
