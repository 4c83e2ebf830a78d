// Writes schema/scenario.schema.json from the zod schema: `npm run schema` (Node 24 runs this file directly).
import { writeFileSync, renameSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderScenarioJsonSchema } from '../src/scenario/json-schema.ts';

const target = fileURLToPath(new URL('../schema/scenario.schema.json', import.meta.url));
// Written beside and renamed, so an editor never reads a half-written schema.
writeFileSync(`${target}.tmp`, renderScenarioJsonSchema());
renameSync(`${target}.tmp`, target);
process.stdout.write(`wrote ${target}\n`);
