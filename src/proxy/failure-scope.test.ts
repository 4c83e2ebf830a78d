// What a failure lets the proxy suggest: the cause read from real servers' error wording, and the scope.
import { describe, expect, it } from 'vitest';
import { failureCause, failurePolicy } from './failure-scope.ts';

describe('failure scope', () => {
  it('reads the cause from the error wording servers use', () => {
    expect(failureCause("ENOENT: no such file or directory, open '/tmp/a.txt'")).toBe('not_found');
    expect(failureCause('Access denied - path outside allowed directories: /etc/passwd not in /tmp/x')).toBe('access_denied');
    expect(failureCause('MCP error -32602: Input validation error: Invalid arguments for tool read_text_file')).toBe('invalid_argument');
    expect(failureCause('HTTP 403 Forbidden')).toBe('access_denied');
    expect(failureCause('Authentication required')).toBe('access_denied');
    expect(failureCause('library missing not found')).toBe('not_found');
    // server-filesystem's own wording for its argument checks, a missing edit target and an existing destination.
    expect(failureCause('Cannot specify both head and tail parameters simultaneously')).toBe('invalid_argument');
    expect(failureCause('Path must be absolute after normalization')).toBe('invalid_argument');
    expect(failureCause('Ambiguous Unicode path component: café')).toBe('invalid_argument');
    expect(failureCause('Could not find exact match for edit:\nold text')).toBe('not_found');
    expect(failureCause('Destination already exists: /tmp/x/b.txt')).toBe('conflict');
    expect(failureCause("EEXIST: file already exists, mkdir '/tmp/x'")).toBe('conflict');
    expect(failureCause('upstream exploded')).toBeUndefined();
    expect(failureCause('the build took 4 seconds')).toBeUndefined();
  });

  it('denied, not found and rejected arguments, timeouts and lost servers look elsewhere; empty and invalid results anywhere', () => {
    for (const cause of ['access_denied', 'not_found', 'invalid_argument', 'conflict'] as const) {
      expect(failurePolicy('error', cause, 'fs')).toMatchObject({ scope: 'elsewhere', why: expect.stringMatching(/fs decides that for all its tools/) });
    }
    for (const kind of ['timeout', 'connection', 'unavailable']) expect(failurePolicy(kind, undefined, 'fs').scope).toBe('elsewhere');
    for (const kind of ['empty', 'invalid', 'error']) expect(failurePolicy(kind, undefined, 'fs').scope).toBe('any');
    expect(failurePolicy('empty', undefined, 'fs').why).toMatch(/empty result/);
  });
});
