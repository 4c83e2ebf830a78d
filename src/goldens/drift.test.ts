import { describe, expect, it } from 'vitest';
import { describeDrift } from './drift.ts';
import { sampleGolden, sampleInteraction } from './testing/golden.ts';
import type { GoldenFile } from './schema.ts';

function conversation(calls: Array<{ name: string; arguments: unknown }>, answer: string): GoldenFile {
  return sampleGolden({
    interactions: [
      sampleInteraction({ summary: { text: '', toolCalls: calls.map((c, i) => ({ id: `call_${i}`, ...c })), finishReason: 'tool_calls' } }),
      sampleInteraction({ summary: { text: answer, toolCalls: [], finishReason: 'stop' } }),
    ],
  });
}

describe('describeDrift', () => {
  const before = conversation([{ name: 'list_tables', arguments: {} }, { name: 'query', arguments: { sql: 'select 1' } }], 'There are 3 tables.');

  it('is empty when ids and timings changed but behaviour did not', () => {
    expect(describeDrift(before, conversation([{ name: 'list_tables', arguments: {} }, { name: 'query', arguments: { sql: 'select 1' } }], 'There are 3 tables.'))).toEqual([]);
  });

  it('names a changed tool-call sequence, changed arguments and a changed final answer', () => {
    expect(describeDrift(before, conversation([{ name: 'list_tables', arguments: {} }], 'There are 3 tables.'))).toEqual(['tool calls: list_tables → query  ⇒  list_tables']);
    expect(describeDrift(before, conversation([{ name: 'list_tables', arguments: {} }, { name: 'query', arguments: { sql: 'select 2' } }], 'There are 4 tables.'))).toEqual([
      'tool call 2 (query) arguments: {"sql":"select 1"} ⇒ {"sql":"select 2"}',
      'final answer: "There are 3 tables." ⇒ "There are 4 tables."',
    ]);
  });
});
