import { describe, expect, it } from 'vitest';
import { GhostOptionsSchema, parseServerConfig } from '../ghost/index.ts';
import { parseProxyConfig } from '../proxy/index.ts';
import { createToolRegistry, MCPTool } from '../rollout/index.ts';
import { parseMcpConfig, transportOf } from './config.ts';

/** One `.mcp.json` with every entry kind the clients people copy configs from write. */
const everyKind = {
  mcpServers: {
    'claude-desktop': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { LOG: '1' } },
    'typed-stdio': { type: 'stdio', command: 'node', args: ['server.js'], cwd: '/srv', description: 'a typed stdio entry', timeout: 60 },
    'cline-disabled': { command: 'uvx', args: ['mcp-server-git'], disabled: true, autoApprove: ['git_status'], alwaysAllow: [] },
    'vscode-http': { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } },
    'cursor-streamable': { type: 'streamableHttp', url: 'http://127.0.0.1:3000/mcp' },
    'dashed-streamable': { type: 'streamable-http', url: 'http://127.0.0.1:3000/mcp', connect_timeout: 5 },
    'transport-key': { transport: 'streamable_http', url: 'http://127.0.0.1:3000/mcp' },
    'typed-sse': { type: 'sse', url: 'http://127.0.0.1:3001/events' },
    'bare-sse': { url: 'http://127.0.0.1:3001/sse' },
    'bare-url': { url: 'http://127.0.0.1:3002/mcp', description: 'Streamable HTTP by default' },
  },
};

describe('one .mcp.json schema', () => {
  it('chooses the transport as the SDK recommends', () => {
    const config = parseMcpConfig(everyKind);
    const kinds = Object.fromEntries(Object.entries(config.mcpServers).map(([name, entry]) => [name, transportOf(entry)]));
    expect(kinds).toEqual({
      'claude-desktop': 'stdio', 'typed-stdio': 'stdio', 'cline-disabled': 'stdio',
      'vscode-http': 'streamable-http', 'cursor-streamable': 'streamable-http', 'dashed-streamable': 'streamable-http', 'transport-key': 'streamable-http',
      'typed-sse': 'sse', 'bare-sse': 'sse', 'bare-url': 'streamable-http',
    });
  });

  it('is accepted alike by the ghost, the proxy and the rollout env', () => {
    expect(Object.keys(parseServerConfig(everyKind).mcpServers)).toHaveLength(10);
    expect(GhostOptionsSchema.safeParse({ provider: 'openai', userPrompt: 'x', serverConfig: everyKind }).success).toBe(true);
    expect(Object.keys(parseProxyConfig(everyKind).mcpServers)).toHaveLength(10);
    const registry = createToolRegistry();
    for (const entry of Object.values(everyKind.mcpServers)) {
      const tool = registry.make('mcp', { server: entry });
      expect(tool).toBeInstanceOf(MCPTool);
      // Built lazily: nothing was started or fetched.
      expect((tool as MCPTool).connectionRequested).toBe(false);
    }
  });

  it('names the offending path and what was expected, in each part', () => {
    const bad = { mcpServers: { db: { command: '', args: 'x' } } };
    expect(() => parseServerConfig(bad)).toThrow(/serverConfig\.mcpServers\.db/);
    expect(() => parseProxyConfig(bad, 'proxy.json')).toThrow(/proxy\.json: mcpServers\.db/);
    expect(() => createToolRegistry().make('mcp', { server: { url: 'ftp://x' } })).toThrow(/server.*http\(s\) URL|expected a stdio server/);
    expect(() => parseMcpConfig({ mcpServers: { a: { type: 'websocket', url: 'ws://x' } } })).toThrow(/mcpServers\.a/);
  });
});
