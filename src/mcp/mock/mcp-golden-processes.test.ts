// Recording an MCP golden starts the real stdio servers: each in its own process group, ended whole.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { alive, pidsIn } from '../../../fixtures/servers/children.ts';
import { fixtureServerPath } from '../../../fixtures/servers/launch.ts';
import { mcpGolden } from './mcp-golden.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('a wrapper-started server, its helper child and a SIGTERM-ignoring grandchild are all gone once the recording closes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-mcp-golden-'));
  dirs.push(dir);
  const pidsFile = join(dir, 'pids');
  // Through `sh -c`, as npx and wrapper scripts start servers: the server is a grandchild of ours.
  const family = { command: 'sh', args: ['-c', `"${process.execPath}" "${fixtureServerPath('family')}"`], env: { FAMILY_PIDS: pidsFile } };
  const file = join(dir, 'family.mcp.json');
  const golden = await mcpGolden({ mcpServers: { family } }, { file, mode: 'record', env: {} });
  const pids = await pidsIn(pidsFile, 3);
  expect(pids).toHaveLength(3);
  expect(pids.every(alive)).toBe(true);
  await golden.close();
  expect(pids.filter(alive)).toEqual([]);
  expect(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { servers: object }).servers)).toEqual(['family']);
});
