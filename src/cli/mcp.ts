/**
 * `ghostwire mcp serve --scenarios FILE [--port N] [--host H] [--token T] | --stdio`: a mock MCP
 * server from an MCP scenario file, on a port (Streamable HTTP at /mcp) or on stdin/stdout
 * (spawnable from any .mcp.json). `ghostwire mcp check FILE...` validates MCP scenario files.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { formatIssue, ScenarioLoadError } from '../scenario/load-error.ts';
import { loadMCPScenario } from '../mcp/mock/load.ts';
import { createMockMCP } from '../mcp/mock/mock-mcp.ts';
import { DEFAULT_HTTP_SESSION_IDLE_MS, DEFAULT_MAX_HTTP_SESSIONS, type HttpSessionOptions } from '../mcp/mock/http.ts';
import { startMockMCPServer, type MockMCPServer } from '../mcp/mock/node-server.ts';
import type { MCPScenario } from '../mcp/mock/schema.ts';
import { processIO, serveUntilSignal, type CommandIO } from './serve-until-signal.ts';

const USAGE = `usage: ghostwire mcp serve --scenarios <file.json> [--port N] [--host H] [--token T]
                          [--max-mcp-sessions N] [--mcp-session-idle MINUTES] [--stdio]
       ghostwire mcp check <file.json>...

Serves a mock MCP server described by an MCP scenario file.
  --scenarios  the MCP scenario file (see docs/mcp-scenario-format.md)
  --stdio      speak MCP on stdin/stdout (for .mcp.json "command" entries); a crash exits the process
  --port       port for Streamable HTTP at /mcp (default 0: a free port)
  --host       interface to bind (default 127.0.0.1; beyond loopback a bearer token is required)
  --token      the bearer token (default: $GHOSTWIRE_MCP_TOKEN, else generated when beyond loopback)
  --max-mcp-sessions  MCP sessions open at once per endpoint (default ${DEFAULT_MAX_HTTP_SESSIONS}; 503 to an initialize beyond)
  --mcp-session-idle  minutes after which an MCP session with no request and no open stream is
                      closed, as a DELETE would (default ${DEFAULT_HTTP_SESSION_IDLE_MS / 60_000}; 0 = never; fractions allowed)
Sessions: {url}/s/{id}/mcp is a fresh copy of the scenario per id. Stops on SIGINT/SIGTERM.
check validates MCP scenario files: every problem as file:line:column: path: message (exit 1 if any).
`;

export type McpIO = CommandIO<MockMCPServer>;

const defaultIO: McpIO = processIO;

async function serveStdio(scenario: MCPScenario, io: McpIO): Promise<number> {
  const mock = createMockMCP(scenario);
  // A crash on stdio is a dead process, as the client of a real server would see it.
  mock.onCrash = () => {
    io.err(`ghostwire mcp: scenario ${JSON.stringify(scenario.name)} crashes the server\n`);
    process.exit(1);
  };
  await mock.serve(new StdioServerTransport(), 'stdio');
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await mock.close();
  return 0;
}

/** The HTTP session limits from the flags, or what is wrong with them. */
function sessionLimits(max: string | undefined, idleMinutes: string | undefined): HttpSessionOptions | string {
  const maxSessions = max === undefined ? DEFAULT_MAX_HTTP_SESSIONS : Number(max);
  if (!Number.isInteger(maxSessions) || maxSessions < 1) return `--max-mcp-sessions must be a whole number of at least 1, got ${JSON.stringify(max)}`;
  const minutes = idleMinutes === undefined ? DEFAULT_HTTP_SESSION_IDLE_MS / 60_000 : Number(idleMinutes);
  if (idleMinutes?.trim() === '' || !Number.isFinite(minutes) || minutes < 0) return `--mcp-session-idle must be a number of minutes, 0 or more (0 = never), got ${JSON.stringify(idleMinutes)}`;
  return { maxSessions, sessionIdleMs: minutes * 60_000 };
}

async function serve(args: string[], io: McpIO): Promise<number> {
  let values: {
    scenarios?: string; port?: string; host?: string; token?: string; stdio?: boolean; help?: boolean;
    'max-mcp-sessions'?: string; 'mcp-session-idle'?: string;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        scenarios: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        token: { type: 'string' },
        stdio: { type: 'boolean' },
        'max-mcp-sessions': { type: 'string' },
        'mcp-session-idle': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    io.err(`ghostwire mcp serve: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (!values.scenarios) {
    io.err(`ghostwire mcp serve: --scenarios <file.json> is required\n\n${USAGE}`);
    return 2;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`ghostwire mcp serve: --port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}\n`);
    return 2;
  }
  const http = sessionLimits(values['max-mcp-sessions'], values['mcp-session-idle']);
  if (typeof http === 'string') {
    io.err(`ghostwire mcp serve: ${http}\n`);
    return 2;
  }
  let scenario: MCPScenario;
  try {
    scenario = loadMCPScenario(values.scenarios);
  } catch (err) {
    io.err(`ghostwire mcp serve: ${err instanceof ScenarioLoadError ? err.message : (err as Error).message}\n`);
    return 1;
  }
  if (values.stdio) return serveStdio(scenario, io);
  const host = values.host ?? '127.0.0.1';
  return serveUntilSignal(io, {
    command: 'ghostwire mcp serve',
    host,
    port,
    start: () => startMockMCPServer({ scenario, port, host, token: values.token ?? io.env.GHOSTWIRE_MCP_TOKEN, http }),
    banner: (server) => {
      io.out(`ghostwire mock MCP server ${JSON.stringify(scenario.name)} listening on ${server.url}\n`);
      io.out(`  ${scenario.tools.length} tool(s), ${scenario.resources.length + scenario.resourceTemplates.length} resource(s), ${scenario.prompts.length} prompt(s)\n`);
      // Printed only when generated here: a token the user passed is theirs already and stays off logs.
      if (server.token && !values.token && !io.env.GHOSTWIRE_MCP_TOKEN) io.out(`  bearer token: ${server.token}\n`);
    },
    stopped: 'ghostwire mock MCP server stopped',
  });
}

function check(files: string[], io: McpIO): number {
  if (!files.length) {
    io.err(`ghostwire mcp check: give at least one file\n\n${USAGE}`);
    return 2;
  }
  let bad = 0;
  for (const file of files) {
    try {
      const s = loadMCPScenario(file);
      io.out(`${file}: ok (${s.tools.length} tool(s), ${s.resources.length + s.resourceTemplates.length} resource(s), ${s.prompts.length} prompt(s))\n`);
    } catch (err) {
      bad++;
      if (err instanceof ScenarioLoadError) io.err(`${err.issues.map(formatIssue).join('\n')}\n`);
      else io.err(`${file}: ${(err as Error).message}\n`);
    }
  }
  return bad ? 1 : 0;
}

/**
 * The `mcp` command group (`mcp serve`); returns the exit code.
 * @example
 *   process.exitCode = await mcpCommand(['serve', '--stdio', '--scenarios', 'fixtures/mcp/github.json']);
 */
export async function mcpCommand(args: string[], io: McpIO = defaultIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'serve') return serve(rest, io);
  if (sub === 'check') return check(rest, io);
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(USAGE);
    return sub ? 0 : 2;
  }
  io.err(`ghostwire mcp: unknown subcommand ${JSON.stringify(sub)}\n\n${USAGE}`);
  return 2;
}
