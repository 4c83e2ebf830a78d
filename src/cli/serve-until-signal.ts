/**
 * The life of a CLI port server, shared by `ghostwire serve` and `ghostwire mcp serve`: start it
 * (a failure to listen is exit code 1, said on stderr), print its banner, run until SIGINT or
 * SIGTERM (or the test's stop signal), close it and say so.
 */

/** A started server the CLI can stop. */
export interface StoppableServer {
  close(): Promise<void>;
}

/** Where the command writes, and what stops it. */
export interface ServeUntilSignalIO<S> {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Resolves when the server should stop (default: the first SIGINT or SIGTERM). */
  stopSignal?: (server: S) => Promise<void>;
}

/** A port-serving command's IO: where it writes, its environment, and what stops it. */
export interface CommandIO<S> extends ServeUntilSignalIO<S> {
  env: Record<string, string | undefined>;
}

/** The process's own streams and environment. */
export const processIO: Omit<CommandIO<unknown>, 'stopSignal'> = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
};

export interface ServeUntilSignalSpec<S> {
  /** The command's name in messages (`ghostwire serve`). */
  command: string;
  host: string;
  port: number;
  start: () => Promise<S>;
  /** Prints what the server is and how to reach it, once it listens. */
  banner: (server: S) => void;
  /** The line printed after the server closed. */
  stopped: string;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * Starts a server, serves until stopped, closes it; resolves with the exit code.
 * @example
 *   return serveUntilSignal(io, { command: 'ghostwire serve', host, port, start: () => startMockLLMServer({ host, port }),
 *     banner: (s) => io.out(`listening on ${s.url}\n`), stopped: 'ghostwire mock LLM stopped' });
 */
export async function serveUntilSignal<S extends StoppableServer>(io: ServeUntilSignalIO<S>, spec: ServeUntilSignalSpec<S>): Promise<number> {
  let server: S;
  try {
    server = await spec.start();
  } catch (err) {
    io.err(`${spec.command}: cannot listen on ${spec.host}:${spec.port}: ${(err as Error).message}\n`);
    return 1;
  }
  spec.banner(server);
  await (io.stopSignal ?? untilSignal)(server);
  await server.close();
  io.out(`${spec.stopped}\n`);
  return 0;
}
