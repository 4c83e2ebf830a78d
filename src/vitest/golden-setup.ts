/**
 * The setup file the ghostwire plugin registers: installs this worker's goldens runtime with the
 * plugin's options and registers `toMatchGolden`.
 */
import { expect, inject } from 'vitest';
import { GoldensRuntime, goldensRuntime } from '../goldens/runtime.ts';
import { resolveGoldensConfig } from '../goldens/config.ts';
import { toMatchGolden } from './golden-matcher.ts';

const provided = inject('ghostwire');
goldensRuntime(() => new GoldensRuntime(provided ?? resolveGoldensConfig({}, { root: process.cwd(), env: process.env, update: false })));
expect.extend({ toMatchGolden });
