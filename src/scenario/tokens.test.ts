// The input-token estimate measures the joined messages without building the text: it must give what
// estimating the joined text gives, which is what token-counting endpoints and step-less usage report.
import { describe, expect, it } from 'vitest';
import type { CanonicalMessage } from './canonical.ts';
import { estimateInputTokens, estimateTokens, tokensOfLength } from './tokens.ts';

const msg = (content: string): CanonicalMessage => ({ role: 'user', content }) as CanonicalMessage;

describe('token estimates', () => {
  it.each([
    ['no messages', []],
    ['one empty message', ['']],
    ['one message', ['Hello, world']],
    ['several, some empty', ['What is the weather like?', '', 'In Paris, please.', '']],
    ['two empty messages (the joining space alone)', ['', '']],
    ['non-ASCII text', ['Ünïcødé — 東京の天気は？', 'ok']],
  ])('%s: the same as estimating the joined text', (_, contents) => {
    const messages = (contents as string[]).map(msg);
    expect(estimateInputTokens({ messages })).toBe(estimateTokens((contents as string[]).join(' ')));
  });

  it('embedding inputs are joined the same way', () => {
    expect(estimateInputTokens({ messages: [], input: ['abcd', 'efgh'] })).toBe(3);
  });

  it('about four characters a token, at least one for any text', () => {
    expect([0, 1, 4, 5, 12].map(tokensOfLength)).toEqual([0, 1, 1, 2, 3]);
  });
});
