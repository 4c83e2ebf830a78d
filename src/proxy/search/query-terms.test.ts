import { describe, expect, it } from 'vitest';
import { Synonyms } from '../../lexicon/index.ts';
import { namedServers, namedTerms, properNames, serverPatterns, valueWords } from './query-terms.ts';

describe('what a query says besides its words', () => {
  it('finds the values in it: file names, quoted strings, numbers', () => {
    expect(valueWords('show me what is inside config.yaml')).toEqual(new Set(['config', 'yaml']));
    expect(valueWords('pick "United Kingdom" in the country list')).toEqual(new Set(['united', 'kingdom']));
    expect(valueWords('scale the web deployment to 10 replicas')).toEqual(new Set(['10']));
    expect(valueWords('list the open issues')).toEqual(new Set());
    expect(valueWords('strip the #draft marker')).toEqual(new Set(['draft']));
  });

  it('finds names written with a capital inside the query, not its first word', () => {
    expect(properNames('Show what Alice said about Acme')).toEqual(new Set(['alice', 'acme']));
  });

  it('tells what an imperative acts on from everything it names', () => {
    const synonyms = new Synonyms();
    const named = namedTerms('delete README.old from the repository', synonyms);
    expect(named.what.has('file')).toBe(true);
    expect(named.what.has('repositori')).toBe(false);
    expect(named.all.has('repositori')).toBe(true);
    // No leading verb: the whole query is what it acts on.
    // Function words name nothing: "do" is no "perform", "I" no iodine.
    const how = namedTerms('how do I delete a branch safely', synonyms);
    expect(how.what.has('branch')).toBe(true);
    expect([...how.what].some((t) => t === 'perform' || t === 'iodin')).toBe(false);
    const question = namedTerms('which repository holds README.old', synonyms);
    expect(question.what).toBe(question.all);
  });

  it('finds the servers a query names as names, not as words', () => {
    const servers = serverPatterns(['linear', 'google-calendar', 'github', 'time']);
    expect(namedServers('update the customer record in Linear', servers)).toEqual(new Set(['linear']));
    expect(namedServers('book it on my Google Calendar', servers)).toEqual(new Set(['google-calendar']));
    expect(namedServers('delete README.old from the repository on GitHub', servers)).toEqual(new Set(['github']));
    expect(namedServers('plot a linear trend over time', servers)).toEqual(new Set());
    // Lowercase first, capitalised later: still named.
    expect(namedServers('a linear scale, in Linear', servers)).toEqual(new Set(['linear']));
  });
});
