// The golden fixture under test.concurrent: three concurrent tests in one file (fixtures/goldens-project/
// concurrent.case.ts) run through `ghostwire test`, recorded against a local mock server, then replayed
// in CI with it stopped; each golden holds only its own test's interactions.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { parseGolden } from '../goldens/store.ts';

const REPO = resolve(import.meta.dirname, '../..');
const BIN = join(REPO, 'bin/ghostwire.js');
const NAMES = ['alpha', 'bravo', 'charlie'];

function ghostwireTest(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const clean = { ...process.env };
    for (const k of ['CI', 'GHOSTWIRE_RECORD', 'GHOSTWIRE_UPSTREAM', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS']) delete clean[k];
    const child = spawn(process.execPath, [BIN, 'test', '--root', 'fixtures/goldens-project', '--color=false', 'concurrent.case.ts', ...args], {
      cwd: REPO,
      env: { ...clean, FORCE_COLOR: '0', NO_COLOR: '1', GW_CONCURRENT: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

const goldenOf = (dir: string, name: string) => join(dir, 'concurrent.case', `concurrent-golden-${name}.json`);
const prompts = (file: string) =>
  parseGolden(readFileSync(file, 'utf8'), file).interactions.map((i) => (i.request.body as { messages: { content: string }[] }).messages[0].content);

describe('golden fixture under test.concurrent', () => {
  let server: MockLLMServer | null = null;
  afterAll(async () => server?.close());

  it('records each concurrent test into its own golden, then replays them with the upstream stopped', { timeout: 90_000 }, async () => {
    const goldens = mkdtempSync(join(tmpdir(), 'gw-concurrent-goldens-'));
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
