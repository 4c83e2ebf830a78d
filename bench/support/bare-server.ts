/**
 * The baseline, run as its own process: a bare node:http server that reads each request's body and
 * writes back one captured answer (status, headers, bytes) — the least a server on this runtime can do
 * per request. Usage: node bare-server.ts <answer.json>, where the file holds { headers, body (base64) }.
 * Prints "listening on http://127.0.0.1:PORT" once it accepts connections.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { headers: Record<string, string>; body: string };
const bytes = Buffer.from(answer.body, 'base64');
// A JSON body goes out as text, as ghostwire writes it: node sends a string in one write with the head.
const chunked = answer.headers['content-type']?.startsWith('text/event-stream') ?? false;
const body: string | Buffer = chunked ? bytes : bytes.toString('utf8');
const headers = chunked ? answer.headers : { ...answer.headers, 'content-length': String(bytes.length) };

const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => res.writeHead(200, headers).end(body));
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
