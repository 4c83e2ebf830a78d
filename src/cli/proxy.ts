/**
 * `ghostwire proxy serve|search-tools|recommend-tools|refresh|eval`.
 * Output that is not the MCP protocol itself goes to stderr when serving over stdio.
 */
import { parseArgs } from 'node:util';
import { createProxy, ProxyConfigError, type McpProxy } from '../proxy/index.ts';

const USAGE = `usage: ghostwire proxy <command> [options]

commands:
  serve            run the proxy as an MCP server (stdio, or --http HOST:PORT; beyond loopback
                   the bearer token in $GHOSTWIRE_PROXY_TOKEN is required)
  search-tools     search tools:      search-tools "<query>" [--top-k N] [--min-similarity X] [--server S]
  recommend-tools  recommend tools:   recommend-tools "<task>" [--mode semantic|hybrid|llm] [--top-k N]
  refresh          re-index tools:    refresh [--server S] [--force]
  eval             recall@k, MRR, destructive-first per search mode and query class (fixtures/catalog, catalog-large, catalog-heldout, catalog-heldout-2, catalog-heldout-3, catalog-heldout-4, catalog-heldout-5, catalog-heldout-6);
                   fallback alternatives' precision, recall, cross-action and cross-object suggestions (fixtures/fallback, fixtures/fallback-heldout, fallback-heldout-2, fallback-heldout-3)
                   eval [--catalog DIR] [--mode lexical,semantic,hybrid,llm] [--json]; DIR holds tools.json + queries.json (or + pairs.json: a fallback set)

common options:
  --config FILE    the .mcp.json-shaped config (default .mcp.json)
  --store FILE     the SQLite store (default: the config's store_path, else ~/.ghostwire/proxy.db)
  --json           print JSON
`;

const OPTIONS = {
  config: { type: 'string', default: '.mcp.json' },
  store: { type: 'string' },
  http: { type: 'string' },
  'top-k': { type: 'string' },
  'min-similarity': { type: 'string' },
  server: { type: 'string' },
  mode: { type: 'string' },
  force: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  catalog: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const log = (message: string): void => { process.stderr.write(`ghostwire proxy: ${message}\n`); };

function num(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new ProxyConfigError(`--${flag}: expected a number, got "${value}"`);
  return n;
}

async function serve(proxy: McpProxy, http: string | undefined): Promise<number> {
  const stop = async (): Promise<void> => {
    await proxy.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  if (http === undefined) {
    await proxy.serveStdio();
    // The client closing stdin ends the session: close downstreams and exit.
    process.stdin.once('end', () => void stop());
    process.stdin.once('close', () => void stop());
  } else {
    const [host, port] = http.includes(':') ? [http.slice(0, http.lastIndexOf(':')), http.slice(http.lastIndexOf(':') + 1)] : ['127.0.0.1', http];
    let listener;
    try {
      listener = await proxy.listen({ host: host || '127.0.0.1', port: Number(port) });
    } catch (err) {
      process.stderr.write(`ghostwire proxy serve: ${(err as Error).message}\n`);
      await proxy.close();
      return 2;
    }
    process.stdout.write(`listening ${listener.url}\n`);
  }
  // Keep running until a signal or stdin ends.
  return new Promise<number>(() => {});
}

/**
 * Runs `ghostwire proxy ...`; returns the exit code.
 * @example
 *   await proxyCommand(['search-tools', 'read a file', '--config', '.mcp.json']);
 */
export async function proxyCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(USAGE);
    return sub ? 0 : 1;
  }
  let values, positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (err) {
    process.stderr.write(`ghostwire proxy ${sub}: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  // Loaded for eval alone: it brings the mock LLM (every provider adapter) that no other subcommand uses.
  if (sub === 'eval') return (await import('../proxy/eval-command.ts')).runEvalCommand({ catalogDir: values.catalog, json: values.json, modes: values.mode });
  if (!['serve', 'search-tools', 'recommend-tools', 'refresh'].includes(sub)) {
    process.stderr.write(`ghostwire proxy: unknown command "${sub}"\n\n${USAGE}`);
    return 2;
  }
  let proxy: McpProxy;
  try {
    proxy = createProxy(values.config, { storePath: values.store, log, start: sub === 'serve' });
  } catch (err) {
    process.stderr.write(`ghostwire proxy ${sub}: ${(err as Error).message}\n`);
    return 2;
  }
  if (sub === 'serve') return serve(proxy, values.http);
  try {
    const core = proxy.core;
    const text = positionals.join(' ').trim();
    if ((sub === 'search-tools' || sub === 'recommend-tools') && !text) {
      process.stderr.write(`ghostwire proxy ${sub}: give the ${sub === 'search-tools' ? 'query' : 'task'} as an argument\n`);
      return 2;
    }
    let out: unknown;
    if (sub === 'search-tools') {
      out = await core.searchTools(text, { top_k: num(values['top-k'], 'top-k'), min_similarity: num(values['min-similarity'], 'min-similarity'), server: values.server });
    } else if (sub === 'recommend-tools') {
      const mode = values.mode;
      if (mode !== undefined && !['semantic', 'hybrid', 'llm'].includes(mode)) {
        process.stderr.write(`ghostwire proxy recommend-tools: --mode: expected semantic, hybrid or llm, got "${mode}"\n`);
        return 2;
      }
      out = await core.recommendTools(text, { search_mode: mode as 'semantic' | 'hybrid' | 'llm' | undefined, top_k: num(values['top-k'], 'top-k'), server: values.server });
    } else {
      out = await core.refreshTools({ server: values.server, force: values.force });
    }
    process.stdout.write(values.json ? `${JSON.stringify(out, null, 2)}\n` : render(sub, out));
    return 0;
  } catch (err) {
    process.stderr.write(`ghostwire proxy ${sub}: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await proxy.close();
  }
}

function render(sub: string, out: any): string {
  const lines: string[] = [];
  for (const note of [out.note, ...(out.notes ?? [])].filter(Boolean)) lines.push(`note: ${note}`);
  for (const u of out.unavailable ?? []) lines.push(`unavailable: ${u.server} (${u.state}): ${u.last_error ?? 'unknown error'}`);
  if (sub === 'search-tools') {
    lines.push(`mode: ${out.mode}`);
    for (const r of out.results) lines.push(`${r.similarity.toFixed(3)}  ${r.server}/${r.tool}${r.available ? '' : ' (unavailable)'}  ${r.description.split('\n')[0].slice(0, 90)}`);
    if (out.results.length === 0) lines.push('no matching tools');
  } else if (sub === 'recommend-tools') {
    lines.push(`search_mode: ${out.search_mode} (ranked by ${out.ranking})`);
    for (const r of out.recommendations) lines.push(`${r.score.toFixed(3)}  ${r.server}/${r.tool}  ${r.reason ?? r.description.split('\n')[0].slice(0, 90)}`);
    if (out.recommendations.length === 0) lines.push('no recommendation');
  } else {
    for (const r of out.results) {
      lines.push(r.error && !r.added.length && !r.updated.length && !r.unchanged
        ? `${r.server}: error: ${r.error}`
        : `${r.server}: ${r.added.length} added, ${r.updated.length} updated, ${r.removed.length} removed, ${r.unchanged} unchanged, ${r.embedded} embedded${r.error ? ` (${r.error})` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
