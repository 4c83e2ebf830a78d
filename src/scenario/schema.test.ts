import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { renderScenarioJsonSchema, scenarioJsonSchema } from './json-schema.ts';
import { ScenarioFileSchema } from './schema.ts';

const SCHEMA_FILE = 'schema/scenario.schema.json';

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f));
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(readJson(SCHEMA_FILE) as object);
}

describe('schema/scenario.schema.json', () => {
  it('is fresh: regenerating from the zod schema gives the committed bytes (run `npm run schema` if not)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(renderScenarioJsonSchema());
  });

  it('allows "$schema", carries descriptions for editors and forbids unknown keys', () => {
    const text = JSON.stringify(scenarioJsonSchema());
    expect(text).toContain('"$schema":{"type":"string"');
    expect(text).toContain('Constraints on the request; absent means a catch-all.');
    const validate = validator();
    expect(validate({ $schema: '../../schema/scenario.schema.json', name: 'a', steps: [] })).toBe(true);
    expect(validate({ name: 'a', steps: [{ respond: { txt: 'typo' } }] })).toBe(false);
  });

  it('every example scenario file validates against both the zod schema and the JSON Schema', () => {
    const validate = validator();
    const files = jsonFiles('fixtures/scenarios');
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const json = readJson(file) as Record<string, unknown>;
      expect(json.$schema, file).toBe('../../schema/scenario.schema.json');
      expect(ScenarioFileSchema.safeParse(json).success, file).toBe(true);
      expect(validate(json), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('the JSON Schema and zod agree on a table of valid and invalid scenarios', () => {
    const validate = validator();
    const step = (respond: unknown, extra: Record<string, unknown> = {}) => ({ name: 's', steps: [{ respond, ...extra }] });
    const samples: Array<[unknown, boolean]> = [
      [step({}), true],
      [step({ text: 'x' }, { match: { model: { regex: '^a', flags: 'i' } } }), true],
      [step({ text: 'x' }, { match: { model: { regex: '^a', flag: 'i' } } }), false],
      [step({ text: 'x' }, { match: { toolResults: true } }), true],
      [step({ text: 'x' }, { match: { toolResults: false } }), false],
      [step({ toolCalls: [{ name: 'f' }] }), true],
      [step({ toolCalls: [{ name: 'f', arguments: [] }] }), false],
      [step({ error: { status: 429, message: 'm', code: null } }), true],
      [step({ error: { status: 600, message: 'm' } }), false],
      [step({ stream: { chunkSize: 2, chunks: null } }), true],
      [step({ stream: { chunkSize: 1.5 } }), false],
      [step({ stream: { chunkSize: 2, errorAfterChunks: 3, error: { message: 'm', type: 'overloaded_error', status: 529 } } }), true],
      [step({ stream: { errorAfterChunks: 3 } }), false],
      [step({ stream: { error: { message: 'm' } } }), false],
      [step({ stream: { errorAfterChunks: 3, error: { message: 'm', status: 200 } } }), false],
      [step({ stream: { errorAfterChunks: 3, error: { message: 'm', code: 'x' } } }), false],
      [step({ finishReason: 'tool_use' }), false],
      [step({ embeddings: [[0.1, 2]] }), true],
      [step({}, { times: 3, consume: true }), true],
      [step({}, { times: -1 }), false],
      [[step({}), { ...step({}), name: 't' }], true],
      [[], true],
      [{ name: 's' }, false],
      ['text', false],
    ];
    for (const [json, valid] of samples) {
      expect(ScenarioFileSchema.safeParse(json).success, `zod: ${JSON.stringify(json)}`).toBe(valid);
      expect(validate(json), `JSON Schema: ${JSON.stringify(json)}`).toBe(valid);
    }
  });

  it('the JSON Schema rejects the schema-level mistakes in fixtures/scenarios-bad, as zod does', () => {
    const validate = validator();
    // wrong-fields.json also has a bad regex, which only the loader checks; the rest is structural.
    for (const name of ['wrong-fields.json', 'not-a-scenario.json']) {
      const json = readJson(join('fixtures/scenarios-bad', name));
      expect(validate(json), name).toBe(false);
      expect(ScenarioFileSchema.safeParse(json).success, name).toBe(false);
    }
  });
});
