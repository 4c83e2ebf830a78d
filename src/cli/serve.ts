/**
 * `ghostwire serve --scenarios <file|dir> [--port N] [--host H]`: the mock LLM on a real port
 * until SIGINT/SIGTERM. `MOCKLLM_SCENARIOS` is used when `--scenarios` is absent.
 */
import { delimiter } from 'node:path';
import { parseArgs } from 'node:util';
import { loadScenarios, ScenarioLoadError } from '../scenario/loader.ts';
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_JOURNAL_BYTES,
  DEFAULT_JOURNAL_LIMIT,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  startMockLLMServer,
  type MockLLMServer,
} from '../transports/server.ts';
import { isLoopback } from '../net/index.ts';
import { processIO, serveUntilSignal, type CommandIO } from './serve-until-signal.ts';
import { goldensOptions, GOLDENS_USAGE, type GoldensArgs } from './serve-goldens.ts';

const MIB = 2 ** 20;

const USAGE = `usage: ghostwire serve [--scenarios <file|dir>] [--port N] [--host H] [options]

Serves the mock LLM on a real port: every provider wire API ghostwire knows (OpenAI Chat and Responses,
Azure OpenAI, Anthropic, Gemini, Vertex AI, Bedrock, Mistral, Cohere, Ollama, embeddings), routed by path.
  --scenarios       scenario file or directory (default: $MOCKLLM_SCENARIOS); new sessions start from them too
  --port            port to listen on (default 0: a free port)
  --host            interface to bind (default 127.0.0.1); beyond loopback the admin API needs a token
  --token           the admin API's bearer token (default $GHOSTWIRE_TOKEN; minted and printed beyond loopback)
  --allowed-host    a Host name to accept besides loopback ones (repeatable)
  --body-limit      largest request body in MiB (default ${DEFAULT_BODY_LIMIT / MIB})
  --journal-limit   journal entries kept per session (default ${DEFAULT_JOURNAL_LIMIT})
  --journal-mib     journal MiB kept across all sessions (default ${DEFAULT_JOURNAL_BYTES / MIB})
  --max-sessions    sessions besides "default" (default ${DEFAULT_MAX_SESSIONS})
  --session-idle    minutes after which an unused session is deleted (default ${DEFAULT_SESSION_IDLE_MS / 60_000}; 0 = never)
  --no-protocol-rules  answer requests that break a provider's protocol rules (unanswered tool calls,
                    dropped thinking blocks) instead of refusing them as the real API does
${GOLDENS_USAGE}Sessions: ${'${url}'}/s/{id}/...; admin API: ${'${url}'}/__ghostwire/. Stops on SIGINT/SIGTERM.
`;

/** A positive number from an option, or an error message naming it. */
function positive(values: object, name: string, fallback: number, allowZero = false): number | string {
  const raw = (values as Record<string, unknown>)[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero)) return `--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${JSON.stringify(raw)}`;
  return n;
}

export type ServeIO = CommandIO<MockLLMServer>;

const defaultIO: ServeIO = processIO;

/**
 * Runs the server until stopped; returns the exit code (2 for bad arguments, 1 for bad scenarios).
 * @example
 *   process.exitCode = await serve(['--scenarios', 'fixtures/scenarios', '--port', '8080']);
 */
export async function serve(args: string[], io: ServeIO = defaultIO): Promise<number> {
  let values: {
    scenarios?: string;
    port?: string;
    host?: string;
    token?: string;
    'allowed-host'?: string[];
    'body-limit'?: string;
    'journal-limit'?: string;
    'journal-mib'?: string;
    'max-sessions'?: string;
    'session-idle'?: string;
    'no-protocol-rules'?: boolean;
    help?: boolean;
  } & GoldensArgs;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        scenarios: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        token: { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'body-limit': { type: 'string' },
        'journal-limit': { type: 'string' },
        'journal-mib': { type: 'string' },
        'max-sessions': { type: 'string' },
        'session-idle': { type: 'string' },
        'no-protocol-rules': { type: 'boolean' },
        goldens: { type: 'string' },
        record: { type: 'boolean' },
        'record-missing': { type: 'boolean' },
        'force-record': { type: 'boolean' },
        upstream: { type: 'string', multiple: true },
        redact: { type: 'string', multiple: true },
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
  // A long-running server must not grow without bound: every limit has a default.
  const limits = {
    bodyLimit: positive(values, 'body-limit', DEFAULT_BODY_LIMIT / MIB),
    journalLimit: positive(values, 'journal-limit', DEFAULT_JOURNAL_LIMIT),
    journalMiB: positive(values, 'journal-mib', DEFAULT_JOURNAL_BYTES / MIB),
    maxSessions: positive(values, 'max-sessions', DEFAULT_MAX_SESSIONS),
    idleMinutes: positive(values, 'session-idle', DEFAULT_SESSION_IDLE_MS / 60_000, true),
  };
  for (const value of Object.values(limits)) {
    if (typeof value === 'string') {
      io.err(`ghostwire serve: ${value}\n`);
      return 2;
    }
  }
  const n = limits as Record<keyof typeof limits, number>;
  if (!Number.isInteger(n.journalLimit) || !Number.isInteger(n.maxSessions)) {
    io.err('ghostwire serve: --journal-limit and --max-sessions must be whole numbers\n');
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
  const goldens = goldensOptions(values, io);
  if (typeof goldens === 'string') {
    io.err(`ghostwire serve: ${goldens}\n`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  return serveUntilSignal(io, {
    command: 'ghostwire serve',
    host,
    port,
    start: () => startMockLLMServer({
      scenarios,
      port,
      host,
      token: values.token ?? (io.env.GHOSTWIRE_TOKEN || undefined),
      allowedHosts: values['allowed-host'],
      bodyLimit: Math.floor(n.bodyLimit * MIB),
      journalLimit: n.journalLimit,
      journalBytes: Math.floor(n.journalMiB * MIB),
      maxSessions: n.maxSessions,
      sessionIdleMs: n.idleMinutes * 60_000,
      protocolRules: values['no-protocol-rules'] ? false : undefined,
      front: goldens?.front,
    }),
    banner: (server) => {
      const steps = scenarios.reduce((sum, s) => sum + s.steps.length, 0);
      io.out(`ghostwire mock LLM listening on ${server.url}\n`);
      io.out(`  ${scenarios.length} scenario(s), ${steps} step(s)${source ? ` from ${source}` : ' (add some with POST /__ghostwire/sessions/default/scenarios)'}\n`);
      io.out(`  OpenAI base URL: ${server.url}/v1 · Anthropic: ${server.url} · Gemini: ${server.url}\n`);
      io.out('  every client of the plain URL shares the default session; isolate with POST /__ghostwire/sessions (base URL /s/{id})\n');
      if (goldens) io.out(`  ${goldens.banner} (a session's golden: POST /__ghostwire/sessions {"golden": "name"}, the session id, or the x-ghostwire-golden header)\n`);
      if (!isLoopback(host)) {
        io.err(`ghostwire serve: WARNING: listening on ${host}, beyond loopback: anyone who can reach this port can use the mock; the admin API needs the token\n`);
      }
      if (server.token && !values.token && !io.env.GHOSTWIRE_TOKEN) io.out(`  admin token: ${server.token} (send "authorization: Bearer <token>" to /__ghostwire/)\n`);
    },
    stopped: 'ghostwire mock LLM stopped',
  });
}
