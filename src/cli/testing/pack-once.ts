/**
 * Vitest global setup: packs this repository at most once per test run, for every test file that installs
 * the package (./packed.ts). Nothing is packed until a file asks, so a run without those files pays nothing;
 * the files that ask meanwhile wait on a Unix socket (no HTTP, which a test file's MSW would intercept) that
 * answers each with the one tarball, or the one failure.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packRepository, type Packed } from './packed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The socket that answers with this run's packed tarball. */
    ghostwirePackSocket: string;
  }
}

/**
 * Provides `ghostwirePackSocket`; the teardown waits for a pack under way and removes the tarball.
 * @example // vitest.config.ts
 * test: { globalSetup: ['src/cli/testing/pack-once.ts'] }
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'ghostwire-tarball-'));
  let packing: Promise<Packed> | null = null;
  const server = createServer((socket) => {
    socket.on('error', () => {});
    packing ??= packRepository(dir);
    packing.then(
      (packed) => socket.end(JSON.stringify({ packed })),
      (error: Error) => socket.end(JSON.stringify({ error: error.message })),
    );
  });
  const path = join(dir, 'pack.sock');
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
  project.provide('ghostwirePackSocket', path);
  return async () => {
    await new Promise((resolve) => server.close(resolve));
    await packing?.catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
}
