import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, pidsIn } from '../../fixtures/servers/children.ts';
import { fixtureServerPath, stdioFixture } from '../../fixtures/servers/launch.ts';
import { connect, type McpSession } from './connect.ts';
import { listAllTools } from './list-tools.ts';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-mcp-connect-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The fixture through `sh -c` (how npx, uvx and wrapper scripts start servers), not exec'd. */
function wrapped(pidsFile: string, extra = ''): { command: string; args: string[]; env: Record<string, string> } {
  return { command: 'sh', args: ['-c', `"${process.execPath}" "${fixtureServerPath('family')}" ${extra}; echo wrapper-done >&2`], env: { FAMILY_PIDS: pidsFile } };
}

describe('connect: stdio in its own process group', () => {
  it('a wrapper-started server with a helper child and a SIGTERM-ignoring grandchild leaves nothing behind', async () => {
    const pidsFile = join(tempDir(), 'pids');
    const session = await connect(wrapped(pidsFile), { killGraceMs: 300 });
    cleanup.push(() => session.close());
    expect((await listAllTools(session.client)).map((t) => t.name)).toEqual(['ping']);
    const wrapperPid = session.pid!;
    // server, helper, helper's child.
    const family = await pidsIn(pidsFile, 3);
    expect(family).toHaveLength(3);
    const all = [wrapperPid, ...family];
    expect(all.every(alive)).toBe(true);
    await session.close();
    expect(all.filter(alive)).toEqual([]);
  });

  it('an abort while the server is still initialising returns within a second and ends the group', async () => {
    const pidsFile = join(tempDir(), 'pids');
    const controller = new AbortController();
    const pending = connect(wrapped(pidsFile, '--no-init'), { signal: controller.signal, timeoutMs: 30_000 });
    const family = await pidsIn(pidsFile, 3);
    expect(family).toHaveLength(3);
    const started = performance.now();
    controller.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow(/run cancelled/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(family.filter(alive)).toEqual([]);
  });

  it('reports a server that exits as lost, with its stderr', async () => {
    let lost: string | undefined;
    const session: McpSession = await connect(stdioFixture('crash'), { onLost: (reason) => { lost = reason; } });
    cleanup.push(() => session.close());
    await session.client.callTool({ name: 'crash', arguments: {} }).catch(() => undefined);
    await expect.poll(() => lost, { timeout: 5000 }).toMatch(/exited/);
    expect(session.closed).toBe(true);
  });

  it('ends a server that floods stdout past the read buffer limit instead of growing without bound', async () => {
    const flood = { command: process.execPath, args: ['-e', 'process.stdout.write("x".repeat(11 * 1024 * 1024)); setInterval(() => {}, 1000)'] };
    await expect(connect(flood, { timeoutMs: 10_000 })).rejects.toThrow(/closed|exceeded/i);
  });
});
