// MCP goldens keep what a server says during a call: a real stdio server (fixtures/servers/notes.ts)
// sends log messages and progress interleaved; an SDK client with onprogress and a logging handler sees
// them while recording, and the same ones, in the same order, when the recording is replayed with no
// server at all (the replay's entry names a command that does not exist).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { useMCPGolden } from '../../vitest/use-mock-mcp.ts';
import type { MCPGolden } from './mcp-golden.ts';

const notes = fileURLToPath(new URL('../../../fixtures/servers/notes.ts', import.meta.url));
const TOKEN = 'notes_secret_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'gw-mcp-golden-notes-'));
const file = join(dir, 'notes.mcp.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Calls export_notes as an SDK user would, noting every notification the call brings, in order. */
async function exportNotes(golden: MCPGolden, withProgress = true): Promise<{ events: unknown[]; text: unknown }> {
  const events: unknown[] = [];
  const client = new Client({ name: 'notes-user', version: '1.0.0' });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void events.push(['log', n.params]));
  await client.connect(new StreamableHTTPClientTransport(new URL(golden.config.mcpServers.notes.url)));
  try {
    const options = withProgress ? { onprogress: (p: unknown) => void events.push(['progress', p]) } : undefined;
    const result = await client.callTool({ name: 'export_notes', arguments: { format: 'md' } }, undefined, options);
    return { events, text: (result.content as Array<{ text: string }>)[0].text };
  } finally {
    await client.close();
  }
}

describe('MCP goldens record and replay the notifications sent during a call', () => {
  let recorded: { events: unknown[]; text: unknown };

  it('records progress and log messages in order, attached to the call, the secret redacted', async () => {
    const golden = await useMCPGolden({ mcpServers: { notes: { command: process.execPath, args: [notes], env: { NOTES_TOKEN: TOKEN } } } }, { file, mode: 'record' });
    recorded = await exportNotes(golden);
    await golden.close();
    // What the client saw while recording: the real server's notifications, through the relay, in order.
    expect(recorded).toEqual({
      text: 'exported 2 notes as md',
      events: [
        ['log', { level: 'info', logger: 'export', data: `exporting as md with token ${TOKEN}` }],
        ['progress', { progress: 1, total: 2, message: 'note://a' }],
        ['log', { level: 'warning', logger: 'export', data: { uri: 'note://b', problem: 'empty' } }],
        ['progress', { progress: 2, total: 2, message: 'note://b' }],
      ],
    });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    const tool = JSON.parse(text).servers.notes.tools.find((t: { name: string }) => t.name === 'export_notes');
    expect(tool.answers).toEqual([{
      match: { argumentsEqual: { format: 'md' } },
      notifications: [
        { method: 'notifications/message', params: { level: 'info', logger: 'export', data: 'exporting as md with token [REDACTED:notes.env.NOTES_TOKEN]' } },
        { method: 'notifications/progress', params: { progress: 1, total: 2, message: 'note://a' } },
        { method: 'notifications/message', params: { level: 'warning', logger: 'export', data: { uri: 'note://b', problem: 'empty' } } },
        { method: 'notifications/progress', params: { progress: 2, total: 2, message: 'note://b' } },
      ],
      content: [{ type: 'text', text: 'exported 2 notes as md' }],
    }]);
  });

  it('replays the same notifications, in the same order, with no server to start', async () => {
    const gone = { mcpServers: { notes: { command: join(dir, 'no-such-server'), env: { NOTES_TOKEN: TOKEN } } } };
    const golden = await useMCPGolden(gone, { file, mode: 'replay' });
    const replayed = await exportNotes(golden);
    const redacted = JSON.parse(JSON.stringify(recorded).replaceAll(TOKEN, '[REDACTED:notes.env.NOTES_TOKEN]'));
    expect(replayed).toEqual(redacted);
    golden.mocks.notes.assertAllConsumed();
  });

  it('replays progress only to a call that asked for it, as a server does', async () => {
    const golden = await useMCPGolden({ mcpServers: { notes: { command: join(dir, 'no-such-server') } } }, { file, mode: 'replay' });
    const { events } = await exportNotes(golden, false);
    expect(events.map((e) => (e as [string])[0])).toEqual(['log', 'log']);
  });
});
