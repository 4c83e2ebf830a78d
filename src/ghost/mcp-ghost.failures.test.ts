// The ghost when things go wrong, per provider: failing tools, timeouts, crashes, malformed calls, limits.
import { describe, expect, it } from 'vitest';
import { childPids, settledChildPids } from '../../fixtures/servers/children.ts';
import { stdioFixture } from '../../fixtures/servers/launch.ts';
import { scenario } from '../scenario/builder.ts';
import type { ProviderName } from './tool-names.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { ghostOptionsFor, on, PROVIDERS, withMockLLM } from './testing/harness.ts';
import type { GhostOptions } from './types.ts';
import type { ScenarioList } from '../transports/mock-llm.ts';

const RECOVERY = { contains: 'The previous approach failed' };

/** Answers the ghost's "no more tools" turn, whatever came before. */
const finalTurn = (p: ProviderName) =>
  scenario('final-turn').priority(10).expect(on(p)).withLastMessage({ contains: 'Do not call tools' }).then().respondWithText('Stopping here.').persistent();

async function run(p: ProviderName, scenarios: ScenarioList, rest: Omit<GhostOptions, 'provider'>) {
  return withMockLLM(scenarios, async (server) => ({
    result: await mcpGhost(ghostOptionsFor(p, server, rest)),
    requests: server.mock.requests,
  }));
}

describe.each(PROVIDERS)('%s', (p) => {
  it('recovers after a failing tool: error to the model, recovery prompt, retryAttempt, backtrackCount', async () => {
    const s = scenario('recover')
      .expect(on(p)).then().respondWithToolCalls([{ id: 'f1', name: 'flaky_fetch_data', arguments: { key: 'a' } }])
      .expect(on(p)).withLastMessage(RECOVERY).then().respondWithToolCalls([{ id: 'f2', name: 'flaky_fetch_data', arguments: { key: 'a' } }])
      .expect(on(p)).withToolResults('flaky_fetch_data').then().respondWithText('The value of a is value-of-a.');
    const { result, requests } = await run(p, [s], {
      serverConfig: { mcpServers: { flaky: stdioFixture('flaky', { env: { FLAKY_FAILURES: '1' } }) } },
      userPrompt: 'Fetch a.',
    });
    expect(result.success).toBe(true);
    expect(result.toolChain.map((t) => [t.success, t.retryAttempt])).toEqual([[false, 0], [true, 1]]);
    expect(result.toolChain[0].error).toMatch(/backend unavailable/);
    expect(result.toolChain[1].result).toMatchObject({ key: 'a', value: 'value-of-a' });
    expect(result.errors).toEqual([
      { iteration: 1, toolName: 'flaky.fetch_data', error: expect.stringMatching(/backend unavailable/), recoveryAction: expect.stringMatching(/backtracked with a recovery prompt/) },
    ]);
    expect(result.executionMetadata).toMatchObject({ backtrackCount: 1, successRate: 50, totalIterations: 3 });
    const second = requests[1].request!;
    const toolResult = second.messages.find((m) => m.role === 'tool')!;
    expect(toolResult.content).toMatch(/Error: backend unavailable/);
    if (p === 'anthropic') expect(toolResult.isError).toBe(true);
    expect(second.messages.at(-1)?.content).toMatch(/Tool flaky_fetch_data failed: .*backend unavailable/);
  });

  it('ends the run at the first failure when backtracking is off', async () => {
    const s = scenario('no-backtrack')
      .expect(on(p)).then().respondWithToolCalls([{ id: 'f1', name: 'flaky_fetch_data', arguments: { key: 'a' } }])
      .expect(on(p)).then().respondWithText('never reached');
    const { result, requests } = await run(p, [s], {
      serverConfig: { mcpServers: { flaky: stdioFixture('flaky', { env: { FLAKY_FAILURES: '1' } }) } },
      userPrompt: 'Fetch a.',
      enableBacktracking: false,
    });
    expect(requests).toHaveLength(1);
    expect(result.success).toBe(false);
    expect(result.finalResult).toBeNull();
    expect(result.summary).toMatch(/first tool failure .*backend unavailable/);
    expect(result.errors).toEqual([expect.objectContaining({ toolName: 'flaky.fetch_data', recoveryAction: null })]);
    expect(result.executionMetadata).toMatchObject({ backtrackCount: 0, stopReason: 'tool_failure', successRate: 0 });
  });

  it('stops calling a tool whose circuit opened, without calling the server', async () => {
    const s = scenario('breaker')
      .expect(on(p)).then().respondWithToolCalls([{ id: 'b1', name: 'flaky_fetch_data', arguments: { key: 'a' } }])
      .expect(on(p)).then().respondWithToolCalls([{ id: 'b2', name: 'flaky_fetch_data', arguments: { key: 'b' } }])
      .expect(on(p)).then().respondWithToolCalls([{ id: 'b3', name: 'flaky_fetch_data', arguments: { key: 'c' } }])
      .expect(on(p)).then().respondWithToolCalls([{ id: 'b4', name: 'flaky_call_count' }])
      .expect(on(p)).then().respondWithText('The backend is down.');
    const { result } = await run(p, [s], {
      serverConfig: { mcpServers: { flaky: stdioFixture('flaky', { env: { FLAKY_FAILURES: '10' } }) } },
      userPrompt: 'Fetch a, b, c.',
      circuitBreakerThreshold: 2,
    });
    expect(result.toolChain.map((t) => t.retryAttempt)).toEqual([0, 1, 2, 0]);
    expect(result.toolChain[2]).toMatchObject({ success: false, executionTimeMs: 0, error: expect.stringMatching(/disabled for this run/) });
    expect(result.toolChain[3].result).toBe(2);
    expect(result.errors[2].recoveryAction).toMatch(/^circuit open/);
    expect(result.executionMetadata.backtrackCount).toBe(3);
  });

  it('cancels a hung call after timeoutMs, reports it, and goes on', async () => {
    const s = scenario('timeout')
      .expect(on(p)).then().respondWithToolCalls([{ id: 'w', name: 'h_wait_forever', arguments: { reason: 'test' } }])
      .expect(on(p)).withLastMessage(RECOVERY).then().respondWithToolCalls([{ id: 'p', name: 'h_ping' }])
      .expect(on(p)).then().respondWithText('The server is alive but slow.');
    const before = childPids();
    const { result } = await run(p, [s], { serverConfig: { mcpServers: { h: stdioFixture('hang') } }, userPrompt: 'Wait.', timeoutMs: 300 });
    expect(await settledChildPids(before)).toEqual(before);
    expect(result.success).toBe(true);
    expect(result.toolChain[0]).toMatchObject({ toolName: 'h.wait_forever', success: false, error: expect.stringMatching(/timed out/i) });
    expect(result.toolChain[0].executionTimeMs).toBeGreaterThanOrEqual(250);
    expect(result.toolChain[1]).toMatchObject({ success: true, result: 'pong' });
  });

  it('survives a server crashing mid-call and leaves no child process', async () => {
    const s = scenario('crash')
      .expect(on(p)).then().respondWithToolCalls([{ id: 'x', name: 'c_crash', arguments: { input: 'boom' } }])
      .expect(on(p)).withLastMessage(RECOVERY).then().respondWithToolCalls([{ id: 'y', name: 'c_echo', arguments: { text: 'still there?' } }])
      .expect(on(p)).withLastMessage(RECOVERY).then().respondWithToolCalls([{ id: 'z', name: 'db_list_tables' }])
      .expect(on(p)).then().respondWithText('The crash server is gone; the database has 3 tables.');
    const before = childPids();
    const { result } = await run(p, [s], { serverConfig: { mcpServers: { c: stdioFixture('crash'), db: stdioFixture('sqlite') } }, userPrompt: 'Go.' });
    expect(await settledChildPids(before)).toEqual(before);
    expect(result.success).toBe(true);
    expect(result.toolChain.map((t) => t.success)).toEqual([false, false, true]);
    expect(result.toolChain[0].error).toMatch(/closed|exited/i);
    expect(result.toolChain[1].error).toMatch(/server "c" has exited/);
    expect(result.executionMetadata.backtrackCount).toBe(2);
  });

  it('answers malformed tool calls back to the model as errors', async () => {
    const s = scenario('malformed')
      .expect(on(p)).then().respondWithToolCalls([
        { id: 'm1', name: 'db_drop_everything' },
        { id: 'm2', name: 'db_query', arguments: {} },
        { id: 'm3', name: 'db_describe_table', arguments: { table: 5 } },
      ])
      .expect(on(p)).then().respondWithToolCalls([{ id: 'm4', name: 'db_list_tables' }])
      .expect(on(p)).then().respondWithText('Three tables.');
    const { result, requests } = await run(p, [s], { serverConfig: { mcpServers: { db: stdioFixture('sqlite') } }, userPrompt: 'Tables?' });
    expect(result.success).toBe(true);
    expect(result.toolChain.map((t) => t.error)).toEqual([
      expect.stringMatching(/unknown tool "db_drop_everything".*db_list_tables/),
      expect.stringMatching(/input schema of db_query: .*required property 'sql'/),
      expect.stringMatching(/"table" must be string/),
      null,
    ]);
    expect(result.errors.map((e) => e.recoveryAction)).toEqual(Array(3).fill('returned the error to the model to correct the call'));
    expect(result.executionMetadata.successRate).toBe(25);
    const told = requests[1].request!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(told).toHaveLength(3);
    expect(told[0]).toMatch(/Error: unknown tool/);
  });

  it('stops at maxIterations with one last call without tools, and says it did not succeed', async () => {
    const s = scenario('endless')
      .expect(on(p)).then().respondWithToolCalls([{ id: 'i1', name: 'db_list_tables' }])
      .expect(on(p)).then().respondWithToolCalls([{ id: 'i2', name: 'db_describe_table', arguments: { table: 'orders' } }]);
    const { result, requests } = await run(p, [s, finalTurn(p)], {
      serverConfig: { mcpServers: { db: stdioFixture('sqlite') } },
      userPrompt: 'Explore.',
      maxIterations: 2,
    });
    expect(requests).toHaveLength(3);
    expect(requests[2].request!.tools).toEqual([]);
    expect(result.success).toBe(false);
    expect(result.finalResult).toBe('Stopping here.');
    expect(result.summary).toMatch(/^Stopped after 2 tool-calling turns.*Final answer: Stopping here\./);
    expect(result.executionMetadata).toMatchObject({ totalIterations: 3, stopReason: 'max_iterations' });
    expect(result.errors.at(-1)).toMatchObject({ toolName: null, error: expect.stringMatching(/maxIterations \(2\)/) });
  });

  it('detects the same call repeated over and over and stops it', async () => {
    const loop = scenario('loop').expect(on(p)).then().respondWithToolCalls([{ name: 'db_list_tables' }]).persistent();
    const { result, requests } = await run(p, [loop, finalTurn(p)], {
      serverConfig: { mcpServers: { db: stdioFixture('sqlite') } },
      userPrompt: 'Loop.',
      maxIdenticalCalls: 2,
    });
    expect(result.toolChain.map((t) => t.success)).toEqual([true, true, false]);
    expect(result.toolChain[2].error).toMatch(/already called 2 times with these exact arguments/);
    expect(result.executionMetadata.stopReason).toBe('repeated_call');
    expect(result.success).toBe(false);
    expect(requests).toHaveLength(4);
  });
});
