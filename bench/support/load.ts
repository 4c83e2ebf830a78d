/**
 * The load generator, run as its own process so its CPU never counts as the server's: one autocannon run
 * per line of JSON options on stdin, one line of JSON on stdout per run with what the bench reads from its
 * result. It stays up between runs (a bench's rounds are many and short: a Node process per round cost
 * more wall time than a round), and ends when its stdin does, so it never outlives the bench.
 */
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const result = await autocannon(JSON.parse(line) as Record<string, unknown>);
  process.stdout.write(
    JSON.stringify({
      requests: result.requests.total,
      ok: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      bytes: result.throughput.total,
      p99Ms: result.latency.p99,
    }) + '\n',
  );
}
