// A dependency only some tests need (ajv for schemas, ws for realtime, the AWS event-stream codec for
// Bedrock, secretlint for golden writes) is loaded on first use, not when `ghostwire/vitest` is imported:
// every test worker imports ghostwire, and a worker that never validates a schema or opens a socket should
// not pay for parsing those packages. require() keeps the callers synchronous; Node >= 22.12 also
// loads ES modules this way, returning the same module instance an `import` gets.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A getter that makes its value on the first call and returns the same value after.
 * @example
 *   const codec = lazily(() => new (smithy().EventStreamCodec)(toUtf8, fromUtf8));
 *   codec().encode(message);
 */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * A getter that loads `specifier` on its first call and returns the same module after.
 * @example
 *   const ws = requireLazily<typeof import('ws')>('ws');
 *   new (ws().WebSocketServer)({ noServer: true });
 */
export function requireLazily<T>(specifier: string): () => T {
  return lazily(() => require(specifier) as T);
}
