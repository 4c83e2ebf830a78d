// Loads one of ghostwire's own heavier modules synchronously, on first use: `toMatchGolden` is a
// synchronous matcher, yet a test file that never asserts a golden must not pay for the goldens code
// (zod schemas, diffing, the provider registry); nor one that never mocks an MCP server for the MCP SDK's
// server. Node >= 22.12 loads ES modules with require().
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// `.ts` in the repository (Node strips the types), `.js` in the built package.
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/**
 * The module `./<name>` (a path from this folder, without extension), loaded once.
 * @example loadSync<typeof import('./goldens-worker.ts')>('goldens-worker').goldenSessionOf(slot)
 */
export function loadSync<T>(name: string): T {
  return require(`./${name}${EXT}`) as T;
}
