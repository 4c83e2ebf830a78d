/**
 * A floor for the non-streaming figure, run as its own process: a bare node:http server that does the
 * least any mock must do per chat completion besides writing bytes — read the body as text,
 * JSON.parse it, build the answer (fresh id, created, the request's model) and JSON.stringify it,
 * mint a request id, and keep a journal of the latest 10,000 parsed requests with their headers.
 * No routing, validation, matching or redaction. Usage: node bare-work-server.ts <answer.json>
 * (the same file as bare-server.ts). Prints "listening on http://127.0.0.1:PORT".
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { headers: Record<string, string>; body: string };
type Completion = { choices: { message: object }[]; usage: { prompt_tokens_details: object; completion_tokens_details: object } };
const template = JSON.parse(Buffer.from(answer.body, 'base64').toString('utf8')) as Completion;
const journal: unknown[] = [];
let count = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')) as { model: string };
    count += 1;
    const requestId = `req_${count.toString(16).padStart(32, '0')}`;
    const { choices, usage } = template;
    const out = {
      ...template,
      id: `chatcmpl-${count.toString(16).padStart(24, '0')}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ ...choices[0], message: { ...choices[0].message } }],
      usage: { ...usage, prompt_tokens_details: { ...usage.prompt_tokens_details }, completion_tokens_details: { ...usage.completion_tokens_details } },
    };
    const text = JSON.stringify(out);
    journal.push({ requestId, request: body, headers: { ...req.headers }, startedAt: Date.now() });
    if (journal.length > 10_000) journal.shift();
    res.writeHead(200, { ...answer.headers, 'x-request-id': requestId, 'content-length': String(Buffer.byteLength(text)) }).end(text);
  });
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
