// Writes schema/scenario.schema.json and schema/mcp-scenario.schema.json from the zod schemas:
// `npm run schema` (Node 24 runs this file directly).
import { writeFileSync, renameSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderScenarioJsonSchema } from '../src/scenario/json-schema.ts';
import { renderMCPScenarioJsonSchema } from '../src/mcp/mock/json-schema.ts';

for (const [file, render] of [
  ['scenario.schema.json', renderScenarioJsonSchema],
  ['mcp-scenario.schema.json', renderMCPScenarioJsonSchema],
] as const) {
  const target = fileURLToPath(new URL(`../schema/${file}`, import.meta.url));
  // Written beside and renamed, so an editor never reads a half-written schema.
  writeFileSync(`${target}.tmp`, render());
  renameSync(`${target}.tmp`, target);
  process.stdout.write(`wrote ${target}\n`);
}
