import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** Test helper: `ghostwire mcp serve` as a child process in its own process group, and its URL. */

export const BIN = resolve(import.meta.dirname, '../../../../bin/ghostwire.js');

export interface ServedMock {
  url: string;
  child: ChildProcess;
  /** Ends the process group and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `ghostwire mcp serve --scenarios file` on a free 127.0.0.1 port.
 * @example
 *   const served = await serveOnPort('fixtures/mcp/conformance.json');
 */
export async function serveOnPort(scenarioFile: string, extraArgs: string[] = []): Promise<ServedMock> {
  const child = spawn(process.execPath, [BIN, 'mcp', 'serve', '--scenarios', scenarioFile, '--port', '0', ...extraArgs], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    await exited;
  };
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((res, rej) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) res(m[1]);
    });
    child.once('exit', (code) => rej(new Error(`ghostwire mcp serve exited (${code}): ${err}`)));
  });
  return { url, child, stop };
}
