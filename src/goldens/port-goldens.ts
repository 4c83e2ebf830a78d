/**
 * Goldens on the real port (`ghostwire serve --goldens DIR`): each golden name (a session's) has one
 * GoldenSession, the same one in-process goldens use, fed with Fetch requests the server rewrote to the
 * real provider's URL. Recording writes the golden atomically after every completed exchange, so a
 * killed server leaves every golden readable; ending a session (or the server) reports unused ones.
 */
import { statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { resolveGoldensConfig, type TrafficMode } from './config.ts';
import { GoldenMismatchError } from './errors.ts';
import { collectSecrets } from './leak-scanner.ts';
import { Masker } from './masks.ts';
import { Redactor } from './redact.ts';
import { GoldenSession, type GoldensContext } from './session.ts';
import { providerCredentials, ProviderUpstreams } from '../providers/index.ts';

/** How a port golden is named: path segments of letters, digits, `.`, `_`, `-` (no `..`), at most 200 characters. */
const NAME = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
/** Client keys remembered for the leak scan (a response echoing one must not be written). */
const MAX_LEARNED_SECRETS = 64;
/**
 * Goldens in play at once, in count and in bytes of the files they loaded: a client naming a new golden per
 * request (`x-ghostwire-golden` on the default session) must not grow the server without end. Ending a
 * session (DELETE, idle expiry) releases its goldens.
 */
const MAX_GOLDENS_IN_PLAY = 1000;
const MAX_GOLDEN_BYTES_IN_PLAY = 512 * 2 ** 20;

/** Too many goldens in play: answered with the provider's 429 (delete finished sessions first). */
export class GoldensFullError extends Error {
  readonly status = 429;
}
const MIN_SECRET_LENGTH = 8;

export interface PortGoldensOptions {
  /** The goldens folder (`--goldens`). */
  dir: string;
  /** replay (default), record (`--record`), record-missing (`--record-missing`). */
  mode?: TrafficMode;
  /** `--upstream URL`: every recorded request goes to this base URL + the path the client sent. */
  upstream?: string | null;
  /** `--upstream PROVIDER=URL`: that provider's requests go to this base URL + the API path. */
  upstreams?: Record<string, string>;
  /** Secret values redacted and refused (besides auth headers and key-named environment variables). */
  redact?: readonly string[];
  env?: Record<string, string | undefined>;
  /** Where failures that reach no client go (a write refused by the leak scan). */
  log?: (line: string) => void;
  /** Goldens in play at once (default 1,000) and the bytes of their files (default 512 MiB). */
  limits?: { goldens?: number; bytes?: number };
}

/** What a golden's session did, reported on session delete and at shutdown. */
export interface PortGoldenReport {
  golden: string;
  /** The golden file, relative to the working directory. */
  file: string;
  mode: 'record' | 'replay';
  action: 'written' | 'replayed' | null;
  /** Recorded interactions the replay never used, as `index: METHOD path`. */
  unused: string[];
  /** Requests the golden could not answer, or a write the leak scan refused. */
  errors: string[];
}

interface Entry {
  name: string;
  owner: string;
  session: GoldenSession;
  writes: Promise<void>;
  errors: string[];
  /** The golden file's size when it was opened (what the byte bound counts). */
  bytes: number;
}

/**
 * The golden sessions of one server.
 * @example
 *   const goldens = new PortGoldens({ dir: 'e2e/goldens', mode: 'record-missing' });
 *   const response = await goldens.serve('s1', 'checkout/pays', 'POST', '/v1/chat/completions', headers, body, signal);
 */
export class PortGoldens {
  readonly ctx: GoldensContext;
  readonly mode: TrafficMode;
  readonly #dir: string;
  readonly #upstream: string | null;
  readonly #upstreams: Record<string, string>;
  readonly #routes = new ProviderUpstreams();
  readonly #entries = new Map<string, Entry>();
  #bytesInPlay = 0;
  readonly #limits: { goldens: number; bytes: number };
  readonly #credentialHeaders = providerCredentials().headers.concat(['authorization', 'x-api-key', 'api-key']);
  readonly #log: (line: string) => void;

  constructor(options: PortGoldensOptions) {
    this.#dir = resolve(options.dir);
    this.mode = options.mode ?? 'replay';
    this.#upstream = options.upstream ?? null;
    this.#upstreams = options.upstreams ?? {};
    this.#limits = { goldens: options.limits?.goldens ?? MAX_GOLDENS_IN_PLAY, bytes: options.limits?.bytes ?? MAX_GOLDEN_BYTES_IN_PLAY };
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    const env = options.env ?? process.env;
    const config = resolveGoldensConfig({ goldensDir: this.#dir, mode: this.mode, redact: [...(options.redact ?? [])] }, { root: process.cwd(), env: {}, update: false, ci: false });
    config.recordHint = `Record it with \`ghostwire serve --goldens ${relative(process.cwd(), this.#dir) || '.'} --record-missing\` against the real provider (or --upstream URL), then commit the file.`;
    this.ctx = {
      config,
      secrets: collectSecrets(config.redact, env),
      redactor: new Redactor({ values: config.redact }),
      masker: new Masker(),
    };
  }

  /** Is `name` a golden name this server accepts (no absolute paths, no `..`)? */
  static validName(name: string): boolean {
    return name.length <= 200 && NAME.test(name);
  }

  /** The golden's file. */
  fileOf(name: string): string {
    return join(this.#dir, ...name.split('/')) + '.json';
  }

  /**
   * The golden session of one server session (`owner`: its id) for golden `name`, created on first use
   * (its mode fixed then: record-missing records only a missing file). Each server session replays the
   * golden from its start, so two tests replaying one golden do not use up each other's interactions.
   */
  #entry(owner: string, name: string): Entry {
    const key = `${owner}\u0000${name}`;
    let entry = this.#entries.get(key);
    if (entry) {
      // Most recently used last: the order the bound below evicts in.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    } else {
      const file = this.fileOf(name);
      let bytes = 0;
      try {
        bytes = statSync(file).size;
      } catch {
        // No golden yet: nothing loaded.
      }
      const full = (): boolean => this.#entries.size >= this.#limits.goldens || this.#bytesInPlay + bytes > this.#limits.bytes;
      // A session that names golden after golden (the header on the default session, which never ends)
      // makes room from its own least recently used ones: each is finished (written, reported) as if its session ended.
      for (const [other, held] of this.#entries) {
        if (!full()) break;
        if (held.owner !== owner) continue;
        this.#finish(other).then(
          (report) => this.#log(`ghostwire serve: ${formatReport(report)} (ended to make room)`),
          (error: unknown) => this.#log(`ghostwire serve: golden ${held.name}: ${(error as Error).message}`),
        );
      }
      if (full()) {
        throw new GoldensFullError(
          `ghostwire: ${this.#entries.size} goldens (${Math.round(this.#bytesInPlay / 2 ** 20)} MiB) are in play, the limit: ` +
            'end finished sessions first (DELETE /__ghostwire/sessions/{id})',
        );
      }
      const session = new GoldenSession(this.ctx, { testFile: join(process.cwd(), 'ghostwire-serve'), testName: name, file });
      entry = { name, owner, session, writes: Promise.resolve(), errors: [], bytes };
      this.#entries.set(key, entry);
      this.#bytesInPlay += bytes;
    }
    return entry;
  }

  /** The mode golden `name` runs in for server session `owner`. */
  modeOf(owner: string, name: string): 'record' | 'replay' {
    return this.#entry(owner, name).session.mode === 'record' ? 'record' : 'replay';
  }

  /**
   * Answers one request for golden `name`: `pathAndQuery` as the client sent it (after the session prefix).
   * Throws GoldenMismatchError when the golden cannot answer (the caller renders it in the provider's shape).
   */
  async serve(owner: string, name: string, incoming: PortRequestParts): Promise<Response> {
    const entry = this.#entry(owner, name);
    const session = entry.session;
    const target = upstreamTarget(this.#routes, incoming, { upstream: this.#upstream, upstreams: this.#upstreams }, session.mode === 'record');
    const request = toUpstreamRequest(target, incoming);
    this.#learnKeys(request.headers);
    if (session.mode !== 'record') {
      try {
        return await session.serve(request);
      } catch (error) {
        entry.errors.push((error as Error).message.split('\n')[0]);
        throw error;
      }
    }
    const response = await session.serve(request, forward);
    // Written once this exchange (and any before it) is complete: a golden on disk is always whole.
    entry.writes = entry.writes.then(() => session.checkpoint()).then(
      () => undefined,
      (error: unknown) => {
        const message = `ghostwire serve: golden ${name}: ${(error as Error).message}`;
        entry.errors.push(message);
        this.#log(message);
      },
    );
    return response;
  }

  /** The client's own keys join the leak scan: a response that echoes one is never written. */
  #learnKeys(headers: Headers): void {
    for (const name of this.#credentialHeaders) {
      const value = headers.get(name)?.replace(/^(Bearer|Basic)\s+/i, '');
      if (!value || value.length < MIN_SECRET_LENGTH || this.ctx.secrets.some((s) => s.value === value)) continue;
      if (this.ctx.secrets.length >= MAX_LEARNED_SECRETS + 16) break;
      this.ctx.secrets.push({ label: `the client's ${name} header`, value });
    }
  }

  /**
   * Ends the golden sessions of server session `owner`: waits for recordings in flight, writes the
   * final goldens (record) and reports what replay left unused.
   */
  async finish(owner: string): Promise<PortGoldenReport[]> {
    const keys = [...this.#entries.keys()].filter((k) => k.startsWith(`${owner}\u0000`));
    return Promise.all(keys.map((key) => this.#finish(key)));
  }

  async #finish(key: string): Promise<PortGoldenReport> {
    const entry = this.#entries.get(key)!;
    this.#entries.delete(key);
    this.#bytesInPlay -= entry.bytes;
    const name = entry.name;
    const { session } = entry;
    const mode = session.mode === 'record' ? 'record' : 'replay';
    const report: PortGoldenReport = { golden: name, file: relative(process.cwd(), session.file).split(sep).join('/'), mode, action: null, unused: [], errors: entry.errors };
    await entry.writes;
    try {
      if (mode === 'record') {
        report.action = (await session.checkpoint()) > 0 ? 'written' : null;
        await session.close();
      } else {
        const outcome = await session.finish(true);
        report.action = outcome.action === 'replayed' ? 'replayed' : null;
        report.unused = outcome.unusedInteractions ?? [];
      }
    } catch (error) {
      // Replay failures were answered to the client already; the report lists them.
      if (!(error instanceof GoldenMismatchError)) report.errors.push((error as Error).message);
    }
    return report;
  }

  /** Ends every session (at shutdown). */
  async finishAll(): Promise<PortGoldenReport[]> {
    return Promise.all([...this.#entries.keys()].map((key) => this.#finish(key)));
  }
}

/** A port request's parts (after the session prefix). */
export interface PortRequestParts {
  method: string;
  pathAndQuery: string;
  headers: Headers;
  body: ArrayBuffer | null;
  signal: AbortSignal;
}

/**
 * Where a port request goes at the provider: a provider's own upstream (base + API path), else the general
 * one (base + the path as sent), else the API's default host; when replaying, any URL with the path will do.
 * @example upstreamTarget(new ProviderUpstreams(), { method: 'POST', pathAndQuery: '/v1/messages', headers }, {}, true) // 'https://api.anthropic.com/v1/messages'
 */
export function upstreamTarget(
  routes: ProviderUpstreams,
  request: Pick<PortRequestParts, 'method' | 'pathAndQuery' | 'headers'>,
  given: { upstream?: string | null; upstreams?: Record<string, string> },
  recording: boolean,
): string {
  const { method, pathAndQuery } = request;
  const route = routes.of(method, pathAndQuery, request.headers);
  const own = route.provider ? given.upstreams?.[route.provider] : undefined;
  if (own) return joinUrl(own, route.apiPath);
  if (given.upstream) return joinUrl(given.upstream, pathAndQuery);
  if (route.origin) return joinUrl(route.origin, route.apiPath);
  if (!recording) return joinUrl('http://ghostwire.invalid', pathAndQuery);
  const why = route.provider
    ? `the ${route.provider} API has no single default host (it depends on your account or region); give it one with --upstream ${route.provider}=URL`
    : `no provider API ghostwire knows serves ${method} ${pathAndQuery}; give the upstream with --upstream URL`;
  throw new Error(`ghostwire: cannot record ${method} ${pathAndQuery}: ${why}.`);
}

/**
 * The request as it goes on to the provider (and into the golden): the target URL, the client's headers
 * minus hop-by-hop ones and ghostwire's own, the body.
 * @example toUpstreamRequest('https://api.openai.com/v1/chat/completions', parts)
 */
export function toUpstreamRequest(target: string, incoming: PortRequestParts): Request {
  const headers = new Headers(incoming.headers);
  for (const h of ['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'x-ghostwire-golden']) headers.delete(h);
  return new Request(target, { method: incoming.method, headers, body: incoming.body && incoming.body.byteLength > 0 ? incoming.body : undefined, signal: incoming.signal });
}

/** Recording's forward: straight to the upstream (no interception in a server process). */
function forward(request: Request): Promise<Response> {
  return fetch(request, { redirect: 'manual' });
}

function joinUrl(base: string, pathAndQuery: string): string {
  return `${base.replace(/\/$/, '')}${pathAndQuery}`;
}

/**
 * One report as the lines a person reads (session delete, shutdown).
 * @example formatReport(report) // 'golden checkout/pays (e2e/goldens/checkout/pays.json): replayed; 1 unused recorded interaction(s): 2: POST /v1/chat/completions'
 */
export function formatReport(report: PortGoldenReport): string {
  const parts = [`golden ${report.golden} (${report.file}): ${report.action ?? 'nothing written or replayed'}`];
  if (report.unused.length > 0) parts.push(`${report.unused.length} unused recorded interaction(s): ${report.unused.join(', ')}`);
  if (report.errors.length > 0) parts.push(`${report.errors.length} error(s): ${report.errors.join(' | ')}`);
  return parts.join('; ');
}
