import { describe, expect, it } from 'vitest';
import { mintId, mintRequestId, randomAlnum, withPrefix } from './ids.ts';
import { chunkText, SSE_DONE, sseFrame } from './sse.ts';

describe('sse', () => {
  it('encodes frames with optional event names and multi-line data', () => {
    expect(sseFrame({ a: 1 })).toBe('data: {"a":1}\n\n');
    expect(sseFrame({ type: 'x' }, 'x')).toBe('event: x\ndata: {"type":"x"}\n\n');
    expect(sseFrame('line1\nline2')).toBe('data: line1\ndata: line2\n\n');
    expect(SSE_DONE).toBe('data: [DONE]\n\n');
  });

  it('chunks text by size without splitting surrogate pairs', () => {
    expect(chunkText('abcdef', 4)).toEqual(['abcd', 'ef']);
    expect(chunkText('', 4)).toEqual([]);
    expect(chunkText('a😀b', 2)).toEqual(['a😀', 'b']);
    expect(chunkText('abc', 0)).toEqual(['a', 'b', 'c']);
  });
});

describe('ids', () => {
  it('mints ids in the providers\' formats', () => {
    expect(randomAlnum(24)).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(mintId('call_')).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(mintRequestId()).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(Array.from({ length: 100 }, () => mintRequestId())).size).toBe(100);
    expect(withPrefix('chatcmpl-', 'abc')).toBe('chatcmpl-abc');
    expect(withPrefix('chatcmpl-', 'chatcmpl-abc')).toBe('chatcmpl-abc');
  });
});
