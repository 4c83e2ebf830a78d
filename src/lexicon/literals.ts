/**
 * Typed values in a query say what kind of tool it needs even when no word does: "17 times 23" is
 * arithmetic, "10.0.0.0/24" a network range, "2.10.0" a version, "eyJ…" a JWT, "30 cm" a unit to
 * convert, "#ff8800" a colour, "0 *\/6 * * *" a cron schedule. Each recogniser adds plain words for
 * its kind, below the query's own words.
 */
import { stem } from './words.ts';
import type { Related } from './synonyms.ts';

/** Weight of a recognised value's kind: like a synonym, below the query's own words. */
const LITERAL_WEIGHT = 0.5;

/** Units of measure by what they measure. */
const UNITS: Record<string, string> = {
  length: 'mm|cm|km|inch(?:es)?|ft|feet|foot|yards?|miles?',
  weight: 'kg|grams?|lbs?|pounds?|oz|ounces?',
  temperature: '°[cf]|celsius|fahrenheit|degrees?',
  volume: 'litres?|liters?|ml|gallons?',
  speed: 'mph|kph|km/h',
  data: 'kb|mb|gb|tb|bytes?',
  area: 'acres?|hectares?',
};
const NUMBER = String.raw`\d+(?:[.,]\d+)?`;
const IPV4 = String.raw`\b\d{1,3}(?:\.\d{1,3}){3}\b`;
const NUMBERS = new RegExp(NUMBER, 'g');
const AN_IPV4 = new RegExp(IPV4);
const ALL_IPV4 = new RegExp(IPV4, 'g');
const OPERATION = new RegExp(String.raw`\d\s*[-+*/×÷^%]\s*\d`);
const VERSION = new RegExp(String.raw`\bv?\d+\.\d+\.\d+(?:-[\w.]+)?\b`);

interface Recogniser {
  kind: string;
  test: (text: string) => boolean;
  words: string[];
}

const matches = (pattern: RegExp) => (text: string): boolean => pattern.test(text);

const RECOGNISERS: Recogniser[] = [
  {
    // Two numbers and an operator or an arithmetic word between them: "17 times 23", "average of 4, 8, 15".
    kind: 'arithmetic',
    test: (text) => (text.match(NUMBERS) ?? []).length >= 2 && !AN_IPV4.test(text) &&
      (OPERATION.test(text) ||
        /\b(plus|minus|times|multipl\w*|divided|divide|add|sum|subtract|average|mean|median|product|percent|squared|cubed|root|modulo|power)\b/i.test(text)),
    words: ['math', 'arithmetic', 'compute', 'evaluate', 'number'],
  },
  // A number with a unit ("30 cm"): converting units of that measure.
  ...Object.entries(UNITS).map(([measure, units]) => ({
    kind: measure, test: matches(new RegExp(String.raw`\b${NUMBER}\s?(?:${units})(?![\w/])`, 'i')), words: ['convert', 'unit', measure],
  })),
  { kind: 'ip', test: matches(AN_IPV4), words: ['ip', 'address', 'network'] },
  // A latitude and a longitude ("48.85, 2.35"): a place on a map.
  { kind: 'coordinates', test: matches(/(?:^|[\s(])-?\d{1,2}\.\d+\s*,\s*-?\d{1,3}\.\d+(?![\d.])/), words: ['coordinates', 'latitude', 'longitude', 'location'] },
  { kind: 'cidr', test: matches(new RegExp(String.raw`${IPV4}/\d{1,2}\b`)), words: ['cidr', 'subnet', 'range'] },
  { kind: 'version', test: (text) => VERSION.test(text.replace(ALL_IPV4, '')), words: ['version', 'semver'] },
  { kind: 'jwt', test: matches(/\beyJ[\w-]+\.[\w-]+\.[\w-]*/), words: ['jwt', 'token', 'decode'] },
  { kind: 'url', test: matches(/\bhttps?:\/\/\S+|\bwww\.\S+/i), words: ['url', 'link'] },
  { kind: 'email', test: matches(/[\w.+-]+@[\w-]+\.[a-z]{2,}/i), words: ['email', 'address'] },
  { kind: 'colour', test: matches(/(?:^|\s)#(?:[0-9a-f]{3}|[0-9a-f]{6})\b|\b(?:rgb|hsl)a?\(/i), words: ['color', 'hex', 'rgb'] },
  // "#draft", "#support": a tag in notes, a channel in chat (the other words tell which).
  { kind: 'hashtag', test: (text) => /(?:^|\s)#(?![0-9a-f]{3}\b|[0-9a-f]{6}\b)[a-z][\w-]*/i.test(text), words: ['tag', 'channel'] },
  // Five fields of digits, ranges and steps, at least one a wildcard: "0 */6 * * *" (a list of numbers is no schedule).
  { kind: 'cron', test: (text) => /(?:^|[\s'"`])(?:[\d*/,-]+\s+){4}[\d*/,-]+(?=$|[\s'"`])/.exec(text)?.[0].includes('*') === true, words: ['cron', 'schedule', 'expression'] },
  // Grouped in fours like a card number ("4539 1488 0343 6467"), not any long number (a timestamp).
  { kind: 'card number', test: matches(/\b\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}\b/), words: ['card', 'number', 'check', 'digit'] },
  { kind: 'radix', test: (text) => /\d/.test(text) && /\b(binary|hexadecimal|octal|base\s?\d+)\b/i.test(text), words: ['base', 'radix', 'number'] },
  { kind: 'emoji', test: matches(/\p{Extended_Pictographic}/u), words: ['emoji'] },
  // A symbol outside ASCII that is no letter, digit nor emoji ("‽", "§"): a character to look up.
  { kind: 'symbol', test: (text) => /[^\p{L}\p{N}\p{Z}\p{Extended_Pictographic}\p{Sc}\u0000-\u007f\u00b0\u2018\u2019\u201c\u201d\u2013\u2014\u2026\ufe0f\u200d]/u.test(text), words: ['character', 'symbol', 'unicode'] },
];

/**
 * The kinds of typed values in a query, each with the plain words for its kind as related terms.
 * @example
 *   literalTerms("what's 17 times 23"); // [{ phrase: 'arithmetic', related: [{ term: 'math', weight: 0.5 }, ...] }]
 */
export function literalTerms(text: string): Array<{ phrase: string; related: Related[] }> {
  const out: Array<{ phrase: string; related: Related[] }> = [];
  for (const r of RECOGNISERS) {
    if (r.test(text)) out.push({ phrase: r.kind, related: r.words.map((w) => ({ term: stem(w), weight: LITERAL_WEIGHT })) });
  }
  return out;
}
