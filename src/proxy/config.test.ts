import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProxyConfig, parseProxyConfig, ProxyConfigError } from './config.ts';
import { embedderFromConfig, llmFromConfig } from './create-proxy.ts';
import { tempDir } from './test-helpers.ts';

const servers = { mcpServers: { fs: { command: 'node', args: ['fs.js'] }, web: { url: 'http://127.0.0.1:9/mcp' } } };

describe('proxy config', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => dirs.splice(0).forEach((c) => c()));

  it('fills every Phase 6 default', () => {
    const c = parseProxyConfig(servers);
    expect(c.mcp_client_proxy).toMatchObject({
      lazy_connect: true, preconnect_servers: [], connection_timeout: 30, max_connection_retries: 3, metrics_retention_days: 7,
    });
    expect(c.recommend_tools).toMatchObject({
      search_mode: 'hybrid', embedding_model: 'text-embedding-3-small', include_metrics: true, max_fallbacks: 3, auto_retry_fallback: false,
    });
    expect(c.mcpServers.fs).toEqual({ command: 'node', args: ['fs.js'] });
  });

  it.each([
    [{ mcp_client_proxy: { connection_timeout: 0 } }, 'mcp_client_proxy.connection_timeout: must be a positive number of seconds'],
    [{ mcp_client_proxy: { max_connection_retries: -1 } }, 'mcp_client_proxy.max_connection_retries: must be 0 or more'],
    [{ recommend_tools: { search_mode: 'fast' } }, 'recommend_tools.search_mode'],
    [{ recommend_tools: { embedding_model: 'my-model' } }, 'recommend_tools.embedding_model: unsupported embedding model "my-model"'],
    [{ mcp_client_proxy: { preconnect_servers: ['nope'] } }, 'mcp_client_proxy.preconnect_servers[0]: unknown server "nope"'],
    [{ mcp_client_proxy: { lazy: true } }, 'mcp_client_proxy: Unrecognized key'],
  ])('rejects %j naming the path', (extra, message) => {
    expect(() => parseProxyConfig({ ...servers, ...extra })).toThrow(message);
  });

  it('accepts an unknown embedding model when its dimensions are given', () => {
    const c = parseProxyConfig({ ...servers, recommend_tools: { embedding_model: 'nomic-embed', embedding_dimensions: 768 } });
    expect(c.recommend_tools.embedding_dimensions).toBe(768);
  });

  it('rejects a server that is neither stdio nor http', () => {
    expect(() => parseProxyConfig({ mcpServers: { x: { cmd: 'node' } } })).toThrow(/mcpServers\.x: expected a stdio server/);
  });

  it('names the file on load errors', () => {
    const { dir, cleanup } = tempDir();
    dirs.push(cleanup);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "mcpServers": ');
    expect(() => loadProxyConfig(bad)).toThrow(ProxyConfigError);
    expect(() => loadProxyConfig(bad)).toThrow(`${bad}: not valid JSON`);
    const wrong = join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ mcpServers: {}, recommend_tools: { max_fallbacks: 'three' } }));
    expect(() => loadProxyConfig(wrong)).toThrow(`${wrong}: recommend_tools.max_fallbacks`);
    expect(() => loadProxyConfig(join(dir, 'none.json'))).toThrow(/cannot read proxy config/);
  });

  it('uses embeddings and an LLM only when the config asks for them', () => {
    const env = { OPENAI_API_KEY: 'sk-from-env', MY_KEY: 'k' };
    expect(embedderFromConfig(parseProxyConfig(servers), env)).toBeUndefined();
    expect(embedderFromConfig(parseProxyConfig({ ...servers, recommend_tools: { embeddings: {} } }), {})).toBeUndefined();
    const e = embedderFromConfig(parseProxyConfig({ ...servers, recommend_tools: { embeddings: {} } }), env);
    expect(e).toMatchObject({ model: 'text-embedding-3-small', dimensions: 1536 });
    const large = embedderFromConfig(parseProxyConfig({ ...servers, recommend_tools: { embedding_model: 'text-embedding-3-large', embeddings: { api_key_env: 'MY_KEY' } } }), env);
    expect(large?.dimensions).toBe(3072);
    expect(llmFromConfig(parseProxyConfig(servers), env)).toBeUndefined();
    expect(llmFromConfig(parseProxyConfig({ ...servers, recommend_tools: { llm: { provider: 'gemini' } } }), env)).toBeDefined();
  });
});
