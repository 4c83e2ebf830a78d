// The plugin, reporter and `ghostwire test` end to end: a small project (fixtures/goldens-project) run
// through the bin in a child process, recording against a local mock server, then replaying with it stopped.
import { mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { weatherScenario } from '../goldens/testing/conversation.ts';
import { parseGolden, serializeGolden } from '../goldens/store.ts';
import { runGhostwireTest, type GhostwireRun } from './testing/run-ghostwire-test.ts';

const ghostwireTest = (args: string[], env: Record<string, string | undefined>): Promise<GhostwireRun> =>
  runGhostwireTest(PROJECT, args, env, ['GW_PROMPT', 'GW_ANSWER', 'GW_EXTRA', 'GW_EARLY']);

const PROJECT = 'fixtures/goldens-project';


describe('ghostwire test + plugin + reporter', () => {
  const goldens = mkdtempSync(join(tmpdir(), 'gw-plugin-goldens-'));
  const agentGolden = join(goldens, 'agent.case', 'weather-agent-answers.json');
  const valueGolden = join(goldens, 'agent.case', 'pure-value.json');
  let server: MockLLMServer | null = null;
  afterAll(async () => {
    await server?.close();
    rmSync(goldens, { recursive: true, force: true });
  });

  it('records with --record-goldens through the upstream, then replays in CI with the upstream stopped', { timeout: 60_000 }, async () => {
    const early = { name: 'early', steps: [{ match: { lastMessage: { content: { contains: 'module level' } } }, respond: { text: 'intercepted' }, consume: false }] };
    server = await startMockLLMServer({ scenarios: [weatherScenario, early as never] });
    const recorded = await ghostwireTest(['--record-goldens'], { GW_GOLDENS_DIR: goldens, GHOSTWIRE_UPSTREAM: server.url, GW_EARLY: '1' });
    expect(recorded.output).toContain('written');
    expect(recorded.code, recorded.output).toBe(0);
    const golden = parseGolden(readFileSync(agentGolden, 'utf8'), agentGolden);
    expect(golden.test).toEqual({ file: 'agent.case.ts', name: 'weather agent answers' });
    expect(golden.input).toEqual({ prompt: 'What is the weather in Paris?' });
    expect(golden.interactions.map((i) => i.summary?.toolCalls.map((c) => c.name))).toEqual([['get_weather'], []]);
    expect(Object.keys(golden.expected).sort()).toEqual(['meta', 'output']);
    expect(existsSync(valueGolden)).toBe(true);
    expect(existsSync(join(goldens, 'early.case', 'module-level-client.json'))).toBe(true);
    await server.close();
    server = null;

    // A golden no test uses any more, recorded long ago: reported as unused (obsolete) and expired.
    const obsolete = join(goldens, 'agent.case', 'removed-test.json');
    writeFileSync(obsolete, serializeGolden({ ...golden, test: { file: 'agent.case.ts', name: 'removed test' }, recordedAt: '2020-01-01T00:00:00.000Z' }));
    const replayed = await ghostwireTest([], { GW_GOLDENS_DIR: goldens, CI: '1', GW_EARLY: '1' });
    expect(replayed.code, replayed.output).toBe(0);
    expect(replayed.output).toMatch(/replayed\s+3/);
    expect(replayed.output).toMatch(/unused\s+1\s+\S*removed-test\.json/);
    expect(replayed.output).toMatch(/expired\s+1\s+\S*removed-test\.json \(\d+d old\)/);
    rmSync(obsolete);
  });

  it('in CI: a changed output fails with a JSON-patch diff, a missing golden fails, an unmatched request shows its diff', { timeout: 60_000 }, async () => {
    const before = readFileSync(agentGolden, 'utf8');
    const run = await ghostwireTest([], { GW_GOLDENS_DIR: goldens, CI: 'true', GW_ANSWER: '43', GW_EXTRA: '1', GW_PROMPT: 'What is the weather in Lyon?' });
    expect(run.code).toBe(1);
    expect(run.output).toContain('~ $.answer: 42 → 43');
    expect(run.output).toContain('missing golden output, and this run does not write new ones (CI, or --update=none)');
    expect(run.output).toContain('no recorded interaction matches POST https://api.openai.com/v1/chat/completions');
    expect(run.output).toContain('~ $.body.messages[0].content: "What is the weather in Paris?" → "What is the weather in Lyon?"');
    expect(existsSync(join(goldens, 'agent.case', 'added-later.json'))).toBe(false);
    expect(readFileSync(agentGolden, 'utf8')).toBe(before);
  });

  it('-u re-derives expected outputs from replay without any provider', { timeout: 60_000 }, async () => {
    const interactionsBefore = parseGolden(readFileSync(agentGolden, 'utf8'), agentGolden).interactions;
    const run = await ghostwireTest(['-u'], { GW_GOLDENS_DIR: goldens, GW_ANSWER: '43' });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/updated\s+1\s+.*pure-value\.json/);
    const value = parseGolden(readFileSync(valueGolden, 'utf8'), valueGolden);
    expect(value.expected.output).toEqual({ answer: 43, tokens: 'expect.any(Number)' });
    expect(parseGolden(readFileSync(agentGolden, 'utf8'), agentGolden).interactions).toEqual(interactionsBefore);
  });

  it('re-recording against a changed upstream reports drift in the final answer', { timeout: 60_000 }, async () => {
    const changed = structuredClone(weatherScenario);
    (changed.steps![1].respond as { text: string }).text = 'Rain in Paris today.';
    server = await startMockLLMServer({ scenarios: [changed] });
    const run = await ghostwireTest(['--record-goldens', '-t', 'weather'], { GW_GOLDENS_DIR: goldens, GHOSTWIRE_UPSTREAM: server.url });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('drift');
    expect(run.output).toContain('final answer: "It is sunny in Paris, 21°C." ⇒ "Rain in Paris today."');
  });
});

describe('ghostwire test in CI', () => {
  it('ignores --record-goldens with a warning: CI always replays', { timeout: 60_000 }, async () => {
    const goldens = mkdtempSync(join(tmpdir(), 'gw-plugin-ci-'));
    onTestFinished(() => rmSync(goldens, { recursive: true, force: true }));
    const run = await ghostwireTest(['--record-goldens', '-t', 'pure value'], { GW_GOLDENS_DIR: goldens, CI: '1' });
    expect(run.output).toContain('CI is set, so goldens are replayed');
    expect(run.output).toContain('missing golden output, and this run does not write new ones (CI, or --update=none)');
    expect(run.code).toBe(1);
    expect(existsSync(join(goldens, 'agent.case'))).toBe(false);
  });
});
