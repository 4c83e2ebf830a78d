// The golden fixture under test.concurrent: three concurrent tests in one file (fixtures/goldens-project/
// concurrent.case.ts) run through `ghostwire test`, recorded against a local mock server, then replayed
// in CI with it stopped; each golden holds only its own test's interactions.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { parseGolden } from '../goldens/store.ts';
import { runGhostwireTest } from './testing/run-ghostwire-test.ts';

const NAMES = ['alpha', 'bravo', 'charlie'];

const ghostwireTest = (args: string[], env: Record<string, string>) =>
  runGhostwireTest('fixtures/goldens-project', ['concurrent.case.ts', ...args], { GW_CONCURRENT: '1', ...env });


const goldenOf = (dir: string, name: string) => join(dir, 'concurrent.case', `concurrent-golden-${name}.json`);
const prompts = (file: string) =>
  parseGolden(readFileSync(file, 'utf8'), file).interactions.map((i) => (i.request.body as { messages: { content: string }[] }).messages[0].content);

describe('golden fixture under test.concurrent', () => {
  let server: MockLLMServer | null = null;
  afterAll(async () => server?.close());

  it('records each concurrent test into its own golden, then replays them with the upstream stopped', { timeout: 90_000 }, async () => {
    const goldens = mkdtempSync(join(tmpdir(), 'gw-concurrent-goldens-'));
    onTestFinished(() => rmSync(goldens, { recursive: true, force: true }));
    const steps = NAMES.map((name) => ({ match: { lastMessage: { content: { contains: name } } }, respond: { text: `About ${name}.` }, consume: false }));
    server = await startMockLLMServer({ scenarios: [{ name: 'concurrent', steps } as never] });
    const recorded = await ghostwireTest(['--record-goldens'], { GW_GOLDENS_DIR: goldens, GHOSTWIRE_UPSTREAM: server.url });
    expect(recorded.code, recorded.output).toBe(0);
    expect(recorded.output).toMatch(/3 passed/);
    for (const name of NAMES) {
      expect(prompts(goldenOf(goldens, name))).toEqual([`Tell me about ${name}, turn 0`, `Tell me about ${name}, turn 1`]);
      const golden = parseGolden(readFileSync(goldenOf(goldens, name), 'utf8'), goldenOf(goldens, name));
      expect(golden.test.name).toBe(`concurrent > golden ${name}`);
      expect(golden.expected.output).toEqual({ name, answers: [`About ${name}.`, `About ${name}.`] });
    }
    // The upstream saw all six requests: they were recorded, not answered by some other session.
    expect(server.mock.requests).toHaveLength(6);
    await server.close();
    server = null;

    const replayed = await ghostwireTest([], { GW_GOLDENS_DIR: goldens, CI: '1' });
    expect(replayed.code, replayed.output).toBe(0);
    expect(replayed.output).toMatch(/3 passed/);
    expect(replayed.output).toMatch(/replayed\s+3/);
  });
});
