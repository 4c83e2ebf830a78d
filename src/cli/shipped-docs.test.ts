/**
 * The docs ship in the package (package.json `files`): a user reads them in node_modules/ghostwire/docs.
 * A path they name must be one the user has, or say plainly that it is the repository's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const userDocs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
const REPOSITORY_NOTE = /ghostwire's repository/;

test.each(userDocs)('docs/%s names no repository-only path without saying so', (file) => {
  const text = readFileSync(join(root, 'docs', file), 'utf8');
  const named = [...text.matchAll(/`(src\/[^`\s]+|[\w./-]+\.test\.ts)`/g)].map((m) => m[1]);
  if (named.length === 0) return;
  expect(text, `${file} names ${named.slice(0, 3).join(', ')}`).toMatch(REPOSITORY_NOTE);
});

test('the schema files the scenario docs point editors at are in the package', () => {
  const files = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
  expect(files).toContain('schema/');
  for (const doc of ['scenario-format.md', 'mcp-scenario-format.md']) {
    const text = readFileSync(join(root, 'docs', doc), 'utf8');
    const schemas = [...text.matchAll(/node_modules\/ghostwire\/(schema\/[\w.-]+\.json)/g)].map((m) => m[1]);
    expect(schemas.length, doc).toBeGreaterThan(0);
    for (const schema of schemas) expect(readdirSync(join(root, 'schema'))).toContain(schema.slice('schema/'.length));
  }
});
