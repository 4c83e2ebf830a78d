import { describe, expect, it } from 'vitest';
import { literalTerms } from './literals.ts';

const kinds = (text: string): string[] => literalTerms(text).map((l) => l.phrase);

describe('typed values in a query', () => {
  it('recognises arithmetic: two numbers with an operator or an arithmetic word', () => {
    expect(kinds("what's 17 times 23")).toEqual(['arithmetic']);
    expect(kinds('average of 4, 8, 15, 16, 23 and 42')).toEqual(['arithmetic']);
    expect(kinds('12.5 * 4')).toEqual(['arithmetic']);
    // One number, or numbers without arithmetic, are not a sum.
    expect(kinds('scale the web deployment to 10 replicas')).toEqual([]);
    expect(kinds('push my 1:1 with Lee to 4pm')).toEqual([]);
  });

  it('recognises network addresses, versions, tokens, links and mail addresses', () => {
    expect(kinds('does 10.0.0.57 fall inside 10.0.0.0/24')).toEqual(['ip', 'cidr']);
    expect(kinds('which is newer, 2.10.0 or 2.9.5')).toEqual(['version']);
    expect(kinds('decode eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.x')).toEqual(['jwt']);
    expect(kinds('open https://example.com/a?b=1')).toEqual(['url']);
    expect(kinds('mail bob@example.com')).toEqual(['email']);
    expect(kinds('what street address is at 48.85, 2.35')).toEqual(['coordinates']);
    expect(kinds('compare versions 1.2 and 1.3')).toEqual([]);
  });

  it('recognises units by what they measure, colours, cron schedules, card numbers, radixes and symbols', () => {
    expect(kinds('how many inches is 30 cm')).toEqual(['length']);
    expect(kinds('is 70°F warm')).toEqual(['temperature']);
    expect(kinds('make the header #ff8800')).toEqual(['colour']);
    expect(kinds('make the header #ff8800')).not.toContain('hashtag');
    expect(kinds('strip the #draft marker from these pages')).toEqual(['hashtag']);
    expect(kinds('catch me up on #support')).toEqual(['hashtag']);
    expect(kinds("when will '0 */6 * * *' fire next")).toEqual(['cron']);
    expect(kinds('is 4539 1488 0343 6467 a valid card')).toEqual(['card number']);
    expect(kinds('convert the timestamp 1700000000000')).toEqual([]);
    expect(kinds("what's 255 written in binary")).toEqual(['radix']);
    expect(kinds('give that message a 🎉')).toEqual(['emoji']);
    expect(kinds('what is this weird symbol ‽ called')).toEqual(['symbol']);
    // Typographic quotes and dashes are punctuation, not symbols to look up.
    expect(kinds('rename “Old” – now')).toEqual([]);
  });

  it('gives the words for a kind as related stems, below the query\'s own words', () => {
    const [math] = literalTerms('add 3 and 4');
    expect(math.related.map((r) => r.term)).toContain('math');
    for (const r of math.related) expect(r.weight).toBeLessThan(1);
  });
});
