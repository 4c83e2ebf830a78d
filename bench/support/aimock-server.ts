/**
 * The peer, run as its own process: aimock (`@copilotkit/aimock`, a dev dependency) serving the fixtures
 * in the JSON file argv[2] ({ match, response, opts } entries, aimock's own fixture shape). Prints
 * "listening on http://127.0.0.1:PORT" like the other bench servers. Its journal is capped as ghostwire's
 * is (10,000 entries), so neither side grows without bound over a round.
 */
import { readFileSync } from 'node:fs';
import { LLMock } from '@copilotkit/aimock';

const fixtures = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { match: Record<string, unknown>; response: Record<string, unknown>; opts?: Record<string, unknown> }[];
const mock = new LLMock({ port: 0, host: '127.0.0.1', logLevel: 'silent', journalMaxEntries: 10_000 });
for (const f of fixtures) mock.on(f.match, f.response, f.opts);
const url = await mock.start();
process.stdout.write(`listening on ${url}\n`);
const stop = () => void mock.stop().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
