/**
 * `ghostwire serve --scenarios <file|dir> [--port N] [--host H]`: the mock LLM on a real port
 * until SIGINT/SIGTERM. `MOCKLLM_SCENARIOS` is used when `--scenarios` is absent.
 */
import { delimiter } from 'node:path';
import { parseArgs } from 'node:util';
import { loadScenarios, ScenarioLoadError } from '../scenario/loader.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';

const USAGE = `usage: ghostwire serve [--scenarios <file|dir>] [--port N] [--host H]

Serves the mock LLM (OpenAI, Anthropic, Gemini wire APIs) on a real port.
  --scenarios  scenario file or directory (default: $MOCKLLM_SCENARIOS)
  --port       port to listen on (default 0: a free port)
  --host       interface to bind (default 127.0.0.1)
  --journal-limit  journal entries kept per session (default 10000)
Sessions: ${'${url}'}/s/{id}/...; admin API: ${'${url}'}/__ghostwire/. Stops on SIGINT/SIGTERM.
`;

export interface ServeIO {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Resolves when the server should stop (default: the first SIGINT or SIGTERM). */
  stopSignal?: (server: MockLLMServer) => Promise<void>;
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

const defaultIO: ServeIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
};

/**
 * Runs the server until stopped; returns the exit code (2 for bad arguments, 1 for bad scenarios).
 * @example
 *   process.exitCode = await serve(['--scenarios', 'fixtures/scenarios', '--port', '8080']);
 */
export async function serve(args: string[], io: ServeIO = defaultIO): Promise<number> {
  let values: { scenarios?: string; port?: string; host?: string; 'journal-limit'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        scenarios: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'journal-limit': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    io.err(`ghostwire serve: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`ghostwire serve: --port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}\n`);
    return 2;
  }
  // A long-running server must not grow without bound: keep the latest entries per session.
  const journalLimit = values['journal-limit'] === undefined ? 10_000 : Number(values['journal-limit']);
  if (!Number.isInteger(journalLimit) || journalLimit < 1) {
    io.err(`ghostwire serve: --journal-limit must be a positive integer, got ${JSON.stringify(values['journal-limit'])}\n`);
    return 2;
  }
  const source = values.scenarios ?? io.env.MOCKLLM_SCENARIOS?.trim();
  let scenarios: ReturnType<typeof loadScenarios> = [];
  if (source) {
    try {
      scenarios = loadScenarios(source.split(delimiter).filter(Boolean));
    } catch (err) {
      io.err(`ghostwire serve: ${err instanceof ScenarioLoadError ? err.message : (err as Error).message}\n`);
      return 1;
    }
  }
  let server: MockLLMServer;
  try {
    server = await startMockLLMServer({ scenarios, port, host: values.host ?? '127.0.0.1', journalLimit });
  } catch (err) {
    io.err(`ghostwire serve: cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(err as Error).message}\n`);
    return 1;
  }
  const steps = scenarios.reduce((n, s) => n + s.steps.length, 0);
  io.out(`ghostwire mock LLM listening on ${server.url}\n`);
  io.out(`  ${scenarios.length} scenario(s), ${steps} step(s)${source ? ` from ${source}` : ' (add some with POST /__ghostwire/sessions/default/scenarios)'}\n`);
  io.out(`  OpenAI base URL: ${server.url}/v1 · Anthropic: ${server.url} · Gemini: ${server.url}\n`);
  await (io.stopSignal ?? untilSignal)(server);
  await server.close();
  io.out('ghostwire mock LLM stopped\n');
  return 0;
}
