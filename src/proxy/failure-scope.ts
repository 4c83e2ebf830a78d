/**
 * What a failure lets the proxy suggest. A call refused (access denied), pointed at nothing (not found) or
 * given arguments the tool rejects fails the same way on any tool of the same server, since the server
 * decides what it allows and holds: only other servers' tools may help, or nothing. A server that timed out,
 * dropped the connection or is unavailable cannot run any of its tools now: the same job elsewhere. An empty
 * or invalid result is this tool's answer: the same job by another tool, on any server.
 */
import type { FallbackScope } from './fallback.ts';

/** Why a tool said it failed, read from its error: the causes that rule out its own server. */
export type FailureCause = 'access_denied' | 'not_found' | 'invalid_argument' | 'conflict';

const CAUSES: Array<[FailureCause, RegExp]> = [
  // Node's errno codes, HTTP statuses and the wording servers use (server-filesystem: "Access denied - path outside allowed directories").
  ['access_denied', /\b(?:access denied|permission denied|not permitted|forbidden|unauthori[sz]ed|not allowed|outside (?:the )?allowed|authenticat\w* (?:is )?required|EACCES|EPERM|401|403)\b/i],
  // server-filesystem's edit_file: "Could not find exact match for edit".
  ['not_found', /\b(?:not found|no such (?:file|directory|key|table|object|resource)|does ?n[o']t exist|could not find|ENOENT|404)\b/i],
  // What is to be created is there already (server-filesystem's move_file: "Destination already exists"; HTTP 409).
  ['conflict', /\b(?:already exists?|EEXIST|409|conflict)\b/i],
  // MCP's InvalidParams (-32602), the usual wording of a rejected argument, and server-filesystem's own checks
  // of its arguments ("Cannot specify both head and tail parameters simultaneously", "Path must be absolute
  // after normalization", "Ambiguous Unicode path component").
  [
    'invalid_argument',
    /(?:-32602|\binvalid (?:argument|param|input|value)s?\b|\bEINVAL\b|\bbad request\b|\b400\b|\bcannot (?:specify|use|combine) both\b|\bmutually exclusive\b|\b(?:is|are) required\b|\bmissing required\b|\bmust (?:be|not be|have)\b|\bambiguous\b)/i,
  ],
];

/**
 * The cause a tool's error message names, if it is one that rules out the tool's own server.
 * @example
 *   failureCause("ENOENT: no such file or directory, open '/tmp/a.txt'"); // 'not_found'
 */
export function failureCause(message: string): FailureCause | undefined {
  for (const [cause, pattern] of CAUSES) if (pattern.test(message)) return cause;
  return undefined;
}

/** Where suggestions may come from for a failure, and why, in words for the caller. */
export interface FailurePolicy {
  scope: FallbackScope;
  /** Why the suggestions are what they are; said in the answer. */
  why: string;
}

const WORDS: Record<string, string> = {
  access_denied: 'access was denied', not_found: 'what it asked for was not found', invalid_argument: 'its arguments were rejected',
  conflict: 'what it would create already exists',
  timeout: 'the call timed out', connection: 'the connection to the server was lost', unavailable: 'the server is unavailable',
  empty: 'the tool returned an empty result', invalid: 'the tool returned an invalid result',
};

/**
 * What may be suggested after a failure of this kind (and cause).
 * @example
 *   failurePolicy('error', 'access_denied', 'fs').scope; // 'elsewhere'
 */
export function failurePolicy(kind: string, cause: FailureCause | undefined, server: string): FailurePolicy {
  const what = WORDS[cause ?? kind];
  if (cause) return { scope: 'elsewhere', why: `${what}: ${server} decides that for all its tools, so only the same job on another server is suggested` };
  if (kind === 'timeout' || kind === 'connection' || kind === 'unavailable') {
    return { scope: 'elsewhere', why: `${what}: no tool of ${server} can answer now, so only the same job on another server is suggested` };
  }
  if (kind === 'empty' || kind === 'invalid') return { scope: 'any', why: `${what}: tools doing the same job are suggested` };
  return { scope: 'any', why: 'the tool reported an error: tools doing the same job are suggested' };
}
