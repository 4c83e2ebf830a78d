import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assertNoSecrets, collectSecrets, type Secret } from '../../goldens/leak-scanner.ts';
import { scanJson } from '../../scenario/json-locate.ts';
import { parseMCPScenario } from './load.ts';
import { createMockMCP, type MockMCP } from './mock-mcp.ts';
import { MCPRecorder } from './recording.ts';
import { GroupStdioTransport } from '../stdio-transport.ts';

/**
 * MCP traffic in goldens. In record mode every server of a `.mcp.json` is started for real and
 * fronted by a recording relay; in replay mode each is a mock serving what was recorded — no
 * process started, no network. Either way the code under test gets a `.mcp.json` whose servers
 * are in-process URLs (Streamable HTTP answered through MSW by `handle`). The recording is one
 * JSON file of MCP scenarios, one per server, with secrets (env values given to the servers,
 * header values, API keys in the environment) redacted before it is written.
 */

export type MCPServerEntry = { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; type?: 'stdio' } | { url: string; headers?: Record<string, string>; type?: 'http' | 'streamable-http' };

export interface MCPGoldenOptions {
  /** The recording file (`goldens/agent.mcp.json`). */
  file: string;
  /** Default: record when GHOSTWIRE_RECORD is `1` or `true` (never in CI), else replay. */
  mode?: 'record' | 'replay';
  env?: Record<string, string | undefined>;
  /** The in-process URL of a server: default `http://{name}.mcp-golden.ghostwire.test/mcp`. */
  urlFor?: (name: string) => string;
}

export interface MCPGolden {
  mode: 'record' | 'replay';
  /** The `.mcp.json` for the code under test: every server as an in-process URL. */
  config: { mcpServers: Record<string, { type: 'http'; url: string }> };
  /** Answers Streamable HTTP for those URLs (for an MSW handler); undefined for other URLs. */
  handle(request: Request): Promise<Response> | undefined;
  /** Replay: the mock of each server (calls, journal, assertAllConsumed). */
  mocks: Record<string, MockMCP>;
  /** Record: writes the recording (redacted, leak-checked) and stops the real servers. Replay: closes the mocks. */
  close(): Promise<void>;
}

function modeFrom(env: Record<string, string | undefined>): 'record' | 'replay' {
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return 'replay';
  return env.GHOSTWIRE_RECORD === '1' || env.GHOSTWIRE_RECORD === 'true' ? 'record' : 'replay';
}

const MIN_SECRET = 8;

/** Values handed to servers (env, headers) are secrets, as are API keys and tokens in the environment. */
function secretsOf(servers: Record<string, MCPServerEntry>, env: Record<string, string | undefined>): Secret[] {
  const out = collectSecrets([], env);
  for (const [name, entry] of Object.entries(servers)) {
    const given = 'url' in entry ? entry.headers : entry.env;
    for (const [key, value] of Object.entries(given ?? {})) {
      const label = `${name}.${'url' in entry ? 'headers' : 'env'}.${key}`;
      if (value.length >= MIN_SECRET) out.push({ label, value });
      // `Bearer <token>`: a server may echo the token alone.
      const credential = /^(?:Bearer|Basic|Token)\s+(\S+)$/i.exec(value)?.[1];
      if (credential && credential.length >= MIN_SECRET) out.push({ label, value: credential });
    }
  }
  // Longest first, so a whole value is replaced before a part of it.
  return out.sort((a, b) => b.value.length - a.value.length);
}

function redact(value: unknown, secrets: Secret[]): unknown {
  if (typeof value === 'string') return secrets.reduce((s, secret) => s.split(secret.value).join(`[REDACTED:${secret.label}]`), value);
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k, secrets) as string, redact(v, secrets)]));
  return value;
}

/** The real server, to record: a stdio one in its own process group, ended whole (stdio-transport.ts). */
function connectReal(entry: MCPServerEntry): { client: Client; transport: GroupStdioTransport | StreamableHTTPClientTransport } {
  const client = new Client({ name: 'ghostwire-recorder', version: '1.0.0' });
  const transport =
    'url' in entry
      ? new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } })
      : new GroupStdioTransport({ command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd });
  return { client, transport };
}

function readRecording(file: string): Record<string, unknown> {
  if (!existsSync(file)) throw new Error(`${file}: no MCP recording here; record it once with GHOSTWIRE_RECORD=1`);
  const scan = scanJson(readFileSync(file, 'utf8'));
  if (!scan.ok) throw new Error(`${file}:${scan.error.line}:${scan.error.column}: invalid JSON: ${scan.error.message}`);
  const servers = (scan.value as { servers?: unknown } | null)?.servers;
  if (!servers || typeof servers !== 'object') throw new Error(`${file}: expected { "servers": { name: MCP scenario } }`);
  return servers as Record<string, unknown>;
}

/**
 * Records or replays the MCP servers of a `.mcp.json` around a run.
 * @example
 *   const golden = await mcpGolden({ mcpServers: { github: { command: 'github-mcp' } } }, { file: 'goldens/triage.mcp.json' });
 *   server.use(http.all(() => true, ({ request }) => golden.handle(request)));  // or useMCPGolden() in Vitest
 *   await runAgent({ serverConfig: golden.config });
 *   await golden.close();
 */
export async function mcpGolden(config: { mcpServers: Record<string, MCPServerEntry> }, options: MCPGoldenOptions): Promise<MCPGolden> {
  const env = options.env ?? process.env;
  const mode = options.mode ?? modeFrom(env);
  const urlFor = options.urlFor ?? ((name: string) => `http://${name.toLowerCase().replace(/[^a-z0-9-]+/g, '-') || 'mcp'}.mcp-golden.ghostwire.test/mcp`);
  const names = Object.keys(config.mcpServers);
  const urls = Object.fromEntries(names.map((n) => [n, urlFor(n)]));
  const byOrigin = new Map<string, string>(names.map((n) => [new URL(urls[n]).origin + new URL(urls[n]).pathname, n]));
  const route = (request: Request): string | undefined => {
    const u = new URL(request.url);
    return byOrigin.get(u.origin + u.pathname);
  };
  const result = (handle: (name: string, r: Request) => Promise<Response>, close: () => Promise<void>, mocks: Record<string, MockMCP> = {}): MCPGolden => ({
    mode,
    config: { mcpServers: Object.fromEntries(names.map((n) => [n, { type: 'http' as const, url: urls[n] }])) },
    handle: (request) => {
      const name = route(request);
      return name === undefined ? undefined : handle(name, request);
    },
    mocks,
    close,
  });

  if (mode === 'replay') {
    const recorded = readRecording(options.file);
    const mocks: Record<string, MockMCP> = {};
    for (const n of names) {
      if (!(n in recorded)) throw new Error(`${options.file}: no recording of server "${n}" (recorded: ${Object.keys(recorded).join(', ') || 'none'}); record again with GHOSTWIRE_RECORD=1`);
      try {
        mocks[n] = createMockMCP(parseMCPScenario(recorded[n]));
      } catch (err) {
        throw new Error(`${options.file}: servers.${n}: ${(err as Error).message}`, { cause: err });
      }
    }
    return result((n, r) => mocks[n].handle(r), async () => void (await Promise.all(Object.values(mocks).map((m) => m.close()))), mocks);
  }

  const recorders: Record<string, MCPRecorder> = {};
  const clients: Client[] = [];
  try {
    for (const n of names) {
      const { client, transport } = connectReal(config.mcpServers[n]);
      clients.push(client);
      await client.connect(transport);
      recorders[n] = new MCPRecorder(n, client);
    }
  } catch (err) {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    throw err;
  }
  const close = async (): Promise<void> => {
    const servers = Object.fromEntries(names.map((n) => [n, recorders[n].toScenario()]));
    await Promise.all(Object.values(recorders).map((r) => r.close()));
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    const secrets = secretsOf(config.mcpServers, env);
    const recording = redact({ recordedAt: new Date().toISOString(), servers }, secrets);
    assertNoSecrets(recording, secrets, options.file, 'write');
    mkdirSync(dirname(options.file), { recursive: true });
    // Written beside and renamed: a reader never sees half a recording.
    writeFileSync(`${options.file}.tmp`, `${JSON.stringify(recording, null, 2)}\n`);
    renameSync(`${options.file}.tmp`, options.file);
  };
  return result((n, r) => recorders[n].handle(r), close);
}
