import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { scratchDir, startBare, stoppedAfterAll } from './processes.ts';

const dir = scratchDir();
const started = stoppedAfterAll();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a server a bench started ends when the bench process is killed without running its exit handlers', async () => {
  const script = fileURLToPath(new URL('./testing/orphan.ts', import.meta.url));
  const out = await new Promise<string>((resolve) => execFile(process.execPath, [script], (_err, stdout) => resolve(stdout)));
  const { pid, answer } = JSON.parse(out) as { pid: number; answer: string };
  try {
    expect(answer).toBe('{"ok":true}');
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
  } finally {
    if (alive(pid)) process.kill(-pid, 'SIGKILL');
  }
}, 30_000);

test("a server's sleeps are counted: an idle server woken by a request has slept once more once it is idle again", async () => {
  const bare = await started(startBare(dir, { headers: { 'content-type': 'application/json' }, body: Buffer.from('{"ok":true}') }));
  const idle = () => new Promise((resolve) => setTimeout(resolve, 100));
  await idle();
  const before = bare.sleeps();
  expect(await (await fetch(bare.url, { method: 'POST', body: '{}' })).text()).toBe('{"ok":true}');
  await idle();
  expect(bare.sleeps()).toBeGreaterThan(before);
}, 30_000);
