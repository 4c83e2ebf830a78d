/**
 * A nesting limit for JSON bodies. JSON.parse itself copes with any depth, but every recursive
 * walker after it (canonical forms, matching, redaction, the journal's serialisation) does not:
 * a 5,000-deep array once made a session's journal unreadable. Real request bodies nest a few
 * dozen levels at most (tool schemas), so a deeper one is the client's mistake: a 400.
 */
import { BadRequestError } from '../providers/adapter.ts';

/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 256;

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** How many times `char` occurs, stopping once past `cap` (indexOf runs natively: cheap on any body). */
function countUpTo(text: string, char: string, cap: number): number {
  let n = 0;
  for (let i = text.indexOf(char); i >= 0 && n <= cap; i = text.indexOf(char, i + 1)) n += 1;
  return n;
}

/**
 * The nesting depth of a JSON text, or 0 when it cannot exceed `max` (fewer opening brackets
 * than that: the usual case, decided without a character-by-character scan).
 * @example
 *   jsonDepthOver('[[1]]', 1) // 2
 */
export function jsonDepthOver(text: string, max: number): number {
  // JSON nested d deep has d openers and their d closers: a shorter text cannot be deeper than `max`
  // (one that is not JSON fails to parse before anything walks it).
  if (text.length < 2 * (max + 1)) return 0;
  const brackets = countUpTo(text, '[', max);
  if (brackets + countUpTo(text, '{', max - brackets) <= max) return 0;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth -= 1;
  }
  return deepest > max ? deepest : 0;
}

/**
 * Throws the adapters' BadRequestError (a 400 in the route's provider shape) for a body nested
 * deeper than MAX_JSON_DEPTH.
 * @example
 *   assertNestingWithin(incoming.bodyText);
 */
export function assertNestingWithin(text: string, max = MAX_JSON_DEPTH): void {
  if (jsonDepthOver(text, max) > 0) {
    throw new BadRequestError(`ghostwire: the request body nests arrays and objects more than ${max} levels deep`);
  }
}
