// The `ghost` fixture: runs mcpGhost() inside a test; runs still going when the test ends are aborted
// and awaited, so their MCP servers (and children) are closed before the next test starts.
import { mcpGhost } from '../ghost/mcp-ghost.ts';
import type { GhostOptions, GhostResult } from '../ghost/types.ts';

export interface GhostFixture {
  /** Runs the ghost with the fixture's defaults merged under `options`. */
  (options: Partial<GhostOptions>): Promise<GhostResult>;
  /** Sets defaults for later runs in this test (e.g. provider, apiKey, baseURL of a mock LLM). */
  defaults(options: Partial<GhostOptions>): void;
  /** Results of the finished runs, in order. */
  readonly runs: readonly GhostResult[];
}

/**
 * The fixture function for `test.extend`.
 * @example
 * const it = test.extend<{ ghost: GhostFixture }>({ ghost: ghostFixture });
 * it('answers', async ({ ghost }) => {
 *   ghost.defaults({ provider: 'openai', apiKey: 'sk-test', baseURL: `${server.url}/v1` });
 *   const result = await ghost({ serverConfig, userPrompt: 'How many orders?' });
 * });
 */
export async function ghostFixture({}: object, use: (fixture: GhostFixture) => Promise<void>): Promise<void> {
  const controller = new AbortController();
  const pending = new Set<Promise<unknown>>();
  const runs: GhostResult[] = [];
  let defaults: Partial<GhostOptions> = {};
  const run = async (options: Partial<GhostOptions>): Promise<GhostResult> => {
    const merged = { ...defaults, ...options } as GhostOptions;
    const signal = merged.signal ? AbortSignal.any([merged.signal, controller.signal]) : controller.signal;
    const promise = mcpGhost({ ...merged, signal });
    pending.add(promise);
    try {
      const result = await promise;
      runs.push(result);
      return result;
    } finally {
      pending.delete(promise);
    }
  };
  const fixture = Object.assign(run, {
    defaults(options: Partial<GhostOptions>) {
      defaults = { ...defaults, ...options };
    },
    runs,
  });
  try {
    await use(fixture);
  } finally {
    controller.abort(new Error('the test ended before this ghost run finished'));
    await Promise.allSettled([...pending]);
  }
}
