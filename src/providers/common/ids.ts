/**
 * Id minting in the providers' own formats. Random (crypto) rather than counters: ids must not
 * collide across sessions or workers, and goldens mask them anyway.
 */
import { randomBytes, randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A random string of `length` characters from [A-Za-z0-9].
 * @example
 *   randomAlnum(24) // 'f3Kq...'
 */
export function randomAlnum(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  // 248 = 4 * 62: rejecting bytes above it keeps the distribution uniform; a rare retry is cheap.
  for (let i = 0; i < length; i++) {
    let b = bytes[i];
    while (b >= 248) b = randomBytes(1)[0];
    out += ALNUM[b % 62];
  }
  return out;
}

/**
 * A fresh id with a prefix, e.g. `call_` + 24 characters as OpenAI mints tool call ids.
 * @example
 *   mintId('call_') // 'call_Vx2...'
 */
export function mintId(prefix: string, length = 24): string {
  return prefix + randomAlnum(length);
}

/**
 * A request id as OpenAI sends in `x-request-id`: `req_` + 32 hex digits.
 * @example
 *   mintRequestId() // 'req_4f0c...'
 */
export function mintRequestId(): string {
  // randomUUID draws from a cached entropy pool: far cheaper per call than randomBytes (hot path).
  return `req_${randomUUID().replaceAll('-', '')}`;
}

/**
 * Prefixes a canonical response id the way an API does, unless it already carries the prefix.
 * @example
 *   withPrefix('chatcmpl-', 'abc') // 'chatcmpl-abc'
 */
export function withPrefix(prefix: string, id: string): string {
  return id.startsWith(prefix) ? id : prefix + id;
}
