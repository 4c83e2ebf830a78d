#!/usr/bin/env node
// The `ghostwire` command. In the repository it runs the TypeScript sources (Node 24 strips types), so it is
// never stale after an edit; an installed package ships no src/ and runs its build in dist/ (Node will not
// strip types under node_modules).
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
const { main } = await import(existsSync(source) ? source.href : '../dist/src/cli/main.js');

process.exitCode = await main(process.argv.slice(2));
