import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScenarios, loadScenariosFromEnv, parseScenarioText, readScenarioFiles, ScenarioLoadError } from './loader.ts';
import { scenario, openai } from './builder.ts';
import { PROVIDER_IDS } from '../providers/registry.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ghostwire-loader-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(rel: string, content: unknown): string {
  const file = join(dir, rel);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function loadError(path: string | string[]): ScenarioLoadError {
  try {
    loadScenarios(path);
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioLoadError);
    return err as ScenarioLoadError;
  }
  throw new Error('expected loadScenarios to throw');
}

describe('loadScenarios: happy path', () => {
  it('loads the example fixtures and matches what the builder makes', () => {
    const scenarios = loadScenarios('fixtures/scenarios');
    expect(scenarios.map((s) => s.name)).toEqual(['embeddings', 'errors', 'hello', 'streamed-answer', 'weather']);
    const weather = scenarios.find((s) => s.name === 'weather')!;
    expect('$schema' in weather).toBe(false);
    const built = scenario('weather')
      .variables({ city: 'Paris' })
      .expect(openai())
      .withModel(/^gpt-4o/)
      .withLastMessage({ role: 'user', content: { contains: 'weather' } })
      .withTools('get_weather')
      .then()
      .respondWithToolCalls([{ id: 'call_weather_1', name: 'get_weather', arguments: { city: '{{city}}', unit: 'celsius' } }])
      .withFinishReason('tool_calls')
      .expectToolResults()
      .withUsage({ inputTokens: 82, outputTokens: 18 })
      .expect(openai())
      .withToolResults('get_weather')
      .then()
      .respondWithText('It is sunny in {{city}} today, 21 °C with a light breeze.')
      .withFinishReason('stop')
      .withUsage({ inputTokens: 121, outputTokens: 15 })
      .build();
    expect(weather).toStrictEqual(built);
  });

  it('accepts a file holding an array and applies defaults', () => {
    const file = write('many.json', [
      { name: 'a', steps: [{ respond: { text: 'A' } }] },
      { name: 'b', priority: 3, steps: [{ respond: {} }] },
    ]);
    const [a, b] = loadScenarios(file);
    expect(a).toStrictEqual({ name: 'a', priority: 0, variables: {}, steps: [{ respond: { text: 'A' } }] });
    expect(b.priority).toBe(3);
    // A step that answers nothing in particular is valid: an empty answer.
    expect(b.steps[0].respond).toStrictEqual({});
  });

  it('reads a directory recursively in name order, skipping dot-entries and other extensions', () => {
    write('b.json', { name: 'b', steps: [] });
    write('a/z.json', { name: 'az', steps: [] });
    write('a.json', { name: 'a', steps: [] });
    write('c/d/e.json', { name: 'cde', steps: [] });
    write('.hidden/x.json', { name: 'hidden', steps: [] });
    write('notes.txt', 'not json');
    const result = readScenarioFiles(dir);
    expect(result.files.map((f) => f.slice(dir.length + 1))).toEqual(['a.json', 'a/z.json', 'b.json', 'c/d/e.json']);
    expect(result.scenarios.map((s) => s.name)).toEqual(['a', 'az', 'b', 'cde']);
  });

  it('follows symlinked directories once and survives a symlink cycle', () => {
    write('real/a.json', { name: 'a', steps: [] });
    symlinkSync(join(dir, 'real'), join(dir, 'real', 'loop'));
    expect(readScenarioFiles(join(dir, 'real')).files.map((f) => f.slice(dir.length + 1))).toEqual(['real/a.json']);
  });

  it('round-trips: builder.toJSON() written to a file loads as builder.build()', () => {
    const b = scenario('round')
      .priority(1)
      .variables({ who: 'world' })
      .expect(openai())
      .withModel(/^gpt/i)
      .withHeader('X-Run', { contains: 'a' })
      .then()
      .respondWithText('hello {{who}}')
      .asStream({ chunks: ['hel', 'lo'] })
      .times(2)
      .otherwise()
      .respondWithError(503, 'down', { type: 'server_error', headers: { 'retry-after': '2' } })
      .persistent();
    const file = write('round.json', { $schema: '../schema/scenario.schema.json', ...b.toJSON() });
    expect(loadScenarios(file)).toStrictEqual([b.build()]);
  });

  it('loads from MOCKLLM_SCENARIOS (several paths with the path delimiter) and [] when unset', () => {
    const one = write('one.json', { name: 'one', steps: [] });
    const two = write('two.json', { name: 'two', steps: [] });
    expect(loadScenariosFromEnv({ MOCKLLM_SCENARIOS: `${one}${delimiter}${two}` }).map((s) => s.name)).toEqual(['one', 'two']);
    expect(loadScenariosFromEnv({})).toEqual([]);
    expect(loadScenariosFromEnv({ MOCKLLM_SCENARIOS: '  ' })).toEqual([]);
    expect(() => loadScenariosFromEnv({ MOCKLLM_SCENARIOS: join(dir, 'missing.json') })).toThrow(ScenarioLoadError);
  });
});

describe('loadScenarios: merging by name', () => {
  it('a later file replaces the steps and priority of the same name in place, variables merge', () => {
    write('1-base.json', [
      { name: 'shared', priority: 5, variables: { city: 'Paris', unit: 'C' }, steps: [{ respond: { text: 'old' } }, { respond: { text: 'old 2' } }] },
      { name: 'other', steps: [{ respond: { text: 'other' } }] },
    ]);
    write('2-override.json', { name: 'shared', variables: { city: 'Oslo' }, steps: [{ respond: { text: 'new' } }] });
    const scenarios = loadScenarios(dir);
    expect(scenarios.map((s) => s.name)).toEqual(['shared', 'other']);
    expect(scenarios[0]).toStrictEqual({
      name: 'shared',
      priority: 0,
      variables: { city: 'Oslo', unit: 'C' },
      steps: [{ respond: { text: 'new' } }],
    });
  });

  it('merges across explicit paths in the order given', () => {
    const a = write('a.json', { name: 'x', steps: [{ respond: { text: 'from a' } }] });
    const b = write('b.json', { name: 'x', steps: [{ respond: { text: 'from b' } }] });
    expect(loadScenarios([b, a])[0].steps[0].respond.text).toBe('from a');
    expect(loadScenarios([a, b])[0].steps[0].respond.text).toBe('from b');
  });

  it('rejects the same name twice inside one file', () => {
    const file = write('dup.json', [{ name: 'x', steps: [] }, { name: 'x', steps: [] }]);
    const err = loadError(file);
    expect(err.issues).toEqual([
      expect.objectContaining({ file, path: '[1].name', message: expect.stringContaining('duplicate scenario name "x" (also at [0])') }),
    ]);
  });
});

describe('loadScenarios: errors', () => {
  it('names file, line:column, JSON path and expectation for every problem in the bad fixtures', () => {
    const err = loadError('fixtures/scenarios-bad');
    const lines = err.message.split('\n');
    expect(lines[0]).toBe('invalid scenarios: 12 problems in 4 files');
    expect(lines.slice(1)).toEqual([
      '  fixtures/scenarios-bad/invalid-json.json:5:5: invalid JSON: unexpected "{", expected "," or "]" after array item',
      '  fixtures/scenarios-bad/not-a-scenario.json:3:3: [1]: expected a scenario object, got string',
      '  fixtures/scenarios-bad/not-a-scenario.json:4:5: [2].name: duplicate scenario name "fine" (also at [0]); merge them or rename one',
      '  fixtures/scenarios-bad/not-a-scenario.json:5:3: [3].name: missing; expected a string',
      '  fixtures/scenarios-bad/not-a-scenario.json:5:41: [3].steps[0].respond.error.status: expected an integer >= 400, got 200',
      '  fixtures/scenarios-bad/truncated.json:4:1: invalid JSON: unexpected end of input, expected a JSON value',
      // The provider ids are the registered adapters'.
      `  fixtures/scenarios-bad/wrong-fields.json:5:18: steps[0].match.provider: expected one of ${PROVIDER_IDS.map((id) => `"${id}"`).join(', ')}, got "opena1" (did you mean "openai"?)`,
      '  fixtures/scenarios-bad/wrong-fields.json:5:40: steps[0].match.model: expected a string, { equals }, { contains } or { regex, flags? }, got an object with "regx" (did you mean "regex"?)',
      '  fixtures/scenarios-bad/wrong-fields.json:10:7: steps[1].times: expected an integer >= 1, got 0',
      '  fixtures/scenarios-bad/wrong-fields.json:13:48: steps[2].match.lastMessage.content.regex: expected a valid regular expression: Invalid regular expression: /(unclosed/: Unterminated group',
      '  fixtures/scenarios-bad/wrong-fields.json:15:9: steps[2].respond.txt: unknown key (did you mean "text"?); allowed here: text, json, refusal, reasoning, toolCalls, expectToolResults, usage, finishReason, stream, latencyMs, error, embeddings, headers, echoHeaders, goAway',
      '  fixtures/scenarios-bad/wrong-fields.json:16:68: steps[2].respond.toolCalls[1].name: expected a non-empty string, got ""',
    ]);
    expect(err.message).not.toMatch(/\n\s+at /); // no stack frames in the message
  });

  it('never half-loads: one bad file among good ones rejects the whole set', () => {
    write('a-good.json', { name: 'good', steps: [] });
    write('b-bad.json', { name: 'bad', steps: [{ respond: { toolCalls: [{ name: 'f', arguments: 'nope' }] } }] });
    write('c-good.json', { name: 'good2', steps: [] });
    const result = readScenarioFiles(dir);
    expect(result.scenarios).toEqual([]);
    const err = loadError(dir);
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]).toMatchObject({ path: 'steps[0].respond.toolCalls[0].arguments', line: 9, column: 13 });
    expect(err.issues[0].message).toBe('expected an object, got "nope"');
  });

  it('reports missing paths and empty directories', () => {
    const missing = join(dir, 'nope.json');
    expect(loadError(missing).message).toContain(`${missing}: no such file or directory`);
    mkdirSync(join(dir, 'empty'));
    expect(loadError(join(dir, 'empty')).message).toContain('no *.json scenario files in this directory');
  });

  it('reports dangling *.json links and refuses non-regular files instead of blocking on them', () => {
    write('ok.json', { name: 'ok', steps: [] });
    symlinkSync(join(dir, 'gone.json'), join(dir, 'dangling.json'));
    expect(loadError(dir).issues).toEqual([{ file: join(dir, 'dangling.json'), path: '', message: 'cannot read: ENOENT' }]);
    expect(loadError('/dev/null').issues).toEqual([{ file: '/dev/null', path: '', message: 'not a regular file or directory' }]);
  });

  it('locates every kind of JSON syntax error by line and column', () => {
    const cases: Array<[string, string]> = [
      ['', '1:1: invalid JSON: the file is empty, expected a JSON value'],
      ['{"name": "a", "steps": [],}', '1:27: invalid JSON: trailing comma before "}"'],
      ['[1, 2,]', '1:7: invalid JSON: trailing comma before "]"'],
      ['{\n  "name": tru\n}', '2:11: invalid JSON: unexpected "t", expected a JSON value'],
      ["{\n  'name': 1\n}", `2:3: invalid JSON: unexpected "'", expected a double-quoted property name`],
      ['{"name" "a"}', '1:9: invalid JSON: unexpected "\\"", expected ":" after property name'],
      ['{"name": "a\nb"}', '1:12: invalid JSON: control character (such as a raw newline) inside a string'],
      ['{"name": "abc', '1:10: invalid JSON: unterminated string'],
      ['{"a": "\\x"}', '1:8: invalid JSON: bad escape in string'],
      ['{} {}', '1:4: invalid JSON: unexpected "{" after the end of the JSON value'],
      ['{"a": 01}', '1:8: invalid JSON: unexpected "1", expected "," or "}" after property value'],
    ];
    for (const [text, expected] of cases) {
      const { issues } = parseScenarioText(text, 'f.json');
      expect(issues.map((i) => `${i.line}:${i.column}: ${i.message}`)).toEqual([expected]);
    }
  });

  it('accepts a byte order mark and counts lines with CRLF', () => {
    const ok = parseScenarioText('\uFEFF{"name":"a","steps":[]}', 'bom.json');
    expect(ok.issues).toEqual([]);
    const { issues } = parseScenarioText('{\r\n  "name": "a",\r\n  "steps": [],\r\n  "extra": 1\r\n}', 'crlf.json');
    expect(issues).toEqual([{ file: 'crlf.json', path: 'extra', line: 4, column: 3, message: 'unknown key; allowed here: $schema, name, priority, variables, protocolRules, steps' }]);
  });

  it('explains wrong top-level shapes and bracket-quotes odd keys', () => {
    expect(parseScenarioText('42', 'n.json').issues[0]).toMatchObject({ path: '(top level)', message: 'expected a scenario object or an array of scenarios, got number' });
    const headers = parseScenarioText(JSON.stringify({ name: 'h', steps: [{ match: { headers: { 'x-run': 5 } }, respond: {} }] }), 'h.json');
    expect(headers.issues[0].path).toBe('steps[0].match.headers["x-run"]');
    expect(headers.issues[0].message).toBe('expected a string, { equals }, { contains } or { regex, flags? }, got 5');
  });

  it('words numeric bounds for integers and plain numbers', () => {
    const text = JSON.stringify({
      name: 'n',
      variables: { n: 5 },
      steps: [{ respond: { stream: { chunkSize: 1.5 }, usage: { inputTokens: -1, outputTokens: 1 }, latencyMs: -1, finishReason: 'end' } }],
      priority: 'high',
    });
    expect(parseScenarioText(text, 'n.json').issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'variables.n: expected a string, got 5',
      'steps[0].respond.stream.chunkSize: expected an integer, got 1.5',
      'steps[0].respond.usage.inputTokens: expected an integer >= 0, got -1',
      'steps[0].respond.latencyMs: expected a number >= 0, got -1',
      'steps[0].respond.finishReason: expected one of "stop", "tool_calls", "length", "content_filter", "stop_sequence", got "end"',
      'priority: expected a number, got "high"',
    ]);
  });

  it('explains the intended branch of a union (a regex object with a bad field)', () => {
    const text = JSON.stringify({ name: 'u', steps: [{ match: { model: { regex: '^gpt', flags: 3 } }, respond: {} }] });
    expect(parseScenarioText(text, 'u.json').issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'steps[0].match.model.flags: expected a string, got 3',
    ]);
    const tr = JSON.stringify({ name: 'u', steps: [{ match: { toolResults: ['a', 1] }, respond: {} }] });
    expect(parseScenarioText(tr, 'u.json').issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'steps[0].match.toolResults[1]: expected a string, got 1',
    ]);
  });
});
