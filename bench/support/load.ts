/**
 * The load generator, run as its own process so its CPU never counts as the server's: autocannon with the
 * options given as JSON in argv[2]; prints one JSON line with what the bench reads from its result.
 */
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2]) as Record<string, unknown>;
const result = await autocannon(options);
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
