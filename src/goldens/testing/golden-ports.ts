/**
 * Test-only: goldens ports (`ghostwire serve --goldens`'s front, in process) for the tests of one
 * file, each over a fresh folder; ports closed after each test, folders removed after the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { goldenFront } from '../../transports/golden-front.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import { PortGoldens } from '../port-goldens.ts';

export interface GoldenPorts {
  /** A fresh folder, removed after the file. */
  dir(): string;
  /** A goldens port in `mode` over `dir`, recording against `upstream`, with the lines it logs; closed after the test. */
  port(dir: string, mode: 'record' | 'replay', upstream?: string): Promise<{ server: MockLLMServer; lines: string[] }>;
}

/**
 * Goldens ports for this file's tests.
 * @example
 *   const ports = useGoldenPorts('gw-port-reasoning-');
 *   const { server } = await ports.port(ports.dir(), 'replay');
 */
export function useGoldenPorts(prefix: string): GoldenPorts {
  const dirs: string[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
  });
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return {
    dir() {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    async port(dir, mode, upstream) {
      const lines: string[] = [];
      const front = goldenFront(new PortGoldens({ dir, mode, upstream: upstream ?? null, env: {} }), { log: (l) => lines.push(l) });
      const server = await startMockLLMServer({ front });
      closers.push(() => server.close());
      return { server, lines };
    },
  };
}
