// A bench process that dies without its exit handlers: starts a bare server, prints its pid, SIGKILLs itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBare } from '../processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-orphan-'));
const server = await startBare(dir, { headers: { 'content-type': 'application/json' }, body: Buffer.from('{"ok":true}') });
const answer = await (await fetch(server.url)).text();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ pid: server.pid, answer })}\n`, () => process.kill(process.pid, 'SIGKILL'));
