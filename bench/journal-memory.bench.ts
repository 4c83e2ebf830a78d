/**
 * Memory bounded in bytes: what a server's journal counts for an entry must cover the heap the entry
 * really keeps alive, for the body shapes a journal holds (measured in a child process with
 * --expose-gc, after full collections; see bench/support/journal-heap.ts and
 * docs/decisions/journal-memory.md).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

interface Shape {
  shape: string;
  bodyLength: number;
  entries: number;
  heap: number;
  counted: number;
}

test('a journal entry counts at least the heap it keeps, for every body shape', { timeout: 300_000 }, async ({ annotate }) => {
  const script = fileURLToPath(new URL('./support/journal-heap.ts', import.meta.url));
  const run = spawnSync(process.execPath, ['--expose-gc', script, '2000'], { encoding: 'utf8', timeout: 240_000 });
  expect(run.status, run.stderr).toBe(0);
  const shapes = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Shape);
  expect(shapes).toHaveLength(4);
  const figure = shapes
    .map((s) => `${s.shape} (${s.bodyLength} chars): heap ${s.heap.toFixed(0)} B, counted ${s.counted.toFixed(0)} B (${(s.heap / s.bodyLength).toFixed(2)}x the body)`)
    .join('; ');
  console.log(figure);
  await annotate(figure);
  for (const s of shapes) {
    expect(s.entries, s.shape).toBe(2000);
    expect(s.heap, s.shape).toBeLessThanOrEqual(s.counted);
  }
});
