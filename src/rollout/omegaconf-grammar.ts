/**
 * OmegaConf's string grammar (omegaconf/grammar/OmegaConfGrammarLexer.g4 and
 * OmegaConfGrammarParser.g4) as a recursive-descent reader: top-level text with
 * `${...}` interpolations and `\${` escapes, node interpolations (`${a.b}`,
 * `${.sibling}`, `${a[b]}`), and resolver calls (`${oc.env:X,default}`) whose
 * arguments are elements (primitives, quoted strings, lists, dicts, nested
 * interpolations). The reader produces a small tree; omegaconf-interpolate.ts evaluates it.
 */

/** A float as Python holds it: `str()` of 1e3 is "1000.0", not "1000". */
export class PyFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

export type Piece = { kind: 'text'; text: string } | Interpolation;
export type Interpolation = { kind: 'node'; key: string } | { kind: 'resolver'; name: Piece[][]; args: Element[] };
export type Element =
  | { kind: 'value'; value: null | boolean | number | string | PyFloat }
  | { kind: 'concat'; pieces: Piece[] }
  | { kind: 'quoted'; pieces: Piece[] }
  | { kind: 'list'; items: Element[] }
  | { kind: 'dict'; entries: Array<[Element, Element]> }
  | Interpolation;

/** A grammar error with OmegaConf's class name and the position. */
export class GrammarParseError extends Error {
  override name = 'GrammarParseError';
}

const INT_U = '(?:0|[1-9](?:_?[0-9])*)';
const DIGITS = '[0-9](?:_?[0-9])*';
const POINT = `(?:${INT_U}?\\.${DIGITS}|${INT_U}\\.)`;
const sticky = (p: string) => new RegExp(p, 'y');
// Value-mode primitive tokens, longest match first by construction; ties resolved in the lexer's rule order.
const PRIMITIVE_TOKENS: Array<[string, RegExp]> = [
  ['FLOAT', sticky(`[+-]?(?:(?:${INT_U}|${POINT})[eE][+-]?${DIGITS}|${POINT}|[Ii][Nn][Ff]|[Nn][Aa][Nn])`)],
  ['INT', sticky(`[+-]?${INT_U}`)],
  ['BOOL', sticky('[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]')],
  ['NULL', sticky('[Nn][Uu][Ll][Ll]')],
  ['UNQUOTED_CHAR', sticky('[/\\-\\\\+.$%*@?|]')],
  ['ID', sticky('[a-zA-Z_][a-zA-Z0-9_\\-]*')],
  ['ESC', sticky('(?:\\\\\\\\|\\\\[()[\\]{}:=, \\t])+')],
  ['WS', sticky('[ \\t]+')],
];
const COLON = sticky('[ \\t]*:[ \\t]*');
const COMMA = sticky('[ \\t]*,[ \\t]*');
const BRACE_CLOSE = sticky('[ \\t]*\\}');
const BRACKET_CLOSE = sticky('[ \\t]*\\]');
const INTER_OPEN = sticky('\\$\\{[ \\t]*');
const INTER_KEY = sticky('[^\\\\{}()[\\]:. \\t\'"]+');
const INTER_ID = sticky('[a-zA-Z_][a-zA-Z0-9_\\-]*');

/**
 * Reads a config string as OmegaConf's `configValue` rule: a list of text pieces and interpolations,
 * escapes already applied to the text.
 *
 * @example
 * parseConfigString('http://${oc.env:HOST,localhost}:8000') // [{ text: 'http://' }, { resolver oc.env ... }, { text: ':8000' }]
 */
export function parseConfigString(input: string): Piece[] {
  return read(input, 'configValue') as Piece[];
}

/**
 * Reads a string as OmegaConf's `singleElement` rule (what `oc.decode` parses).
 *
 * @example
 * parseSingleElement('[1, a, {b: 2}]') // { kind: 'list', items: [...] }
 */
export function parseSingleElement(input: string): Element {
  return read(input, 'singleElement') as Element;
}

function read(input: string, rule: 'configValue' | 'singleElement'): Piece[] | Element {
  let at = 0;
  const fail = (why: string): never => {
    throw new GrammarParseError(`${why}\n    ${input}\n    ${' '.repeat(at)}^`);
  };
  const match = (re: RegExp): string | undefined => {
    re.lastIndex = at;
    const m = re.exec(input);
    if (!m) return undefined;
    at += m[0].length;
    return m[0];
  };
  const startsWith = (s: string) => input.startsWith(s, at);

  // text: (interpolation | ANY_STR | ESC | ESC_INTER | TOP_ESC | QUOTED_ESC)+, in the top-level or a quoted mode.
  const text = (quote: "'" | '"' | undefined): Piece[] => {
    const pieces: Piece[] = [];
    const push = (s: string) => {
      const last = pieces.at(-1);
      if (last?.kind === 'text') last.text += s;
      else pieces.push({ kind: 'text', text: s });
    };
    while (at < input.length && !(quote && input[at] === quote)) {
      if (startsWith('${')) {
        pieces.push(interpolation());
        continue;
      }
      const backslashes = /^\\*/.exec(input.slice(at))![0].length;
      if (backslashes > 0) {
        const after = input.slice(at + backslashes);
        if (after.startsWith('${')) {
          // ESC_INTER (odd count: the last backslash escapes `${`) or TOP_ESC before an interpolation (even: halved).
          push('\\'.repeat(Math.floor(backslashes / 2)));
          at += backslashes;
          if (backslashes % 2 === 1) {
            push('${');
            at += 2;
          }
          continue;
        }
        if (quote && after.startsWith(quote)) {
          // An escaped quote: the backslashes before it are halved, the quote kept.
          push('\\'.repeat(Math.floor(backslashes / 2)));
          at += backslashes;
          if (backslashes % 2 === 1) {
            push(quote);
            at += 1;
          }
          continue;
        }
        if (quote && at + backslashes === input.length) fail('unterminated quoted string');
        push(input.slice(at, at + backslashes));
        at += backslashes;
        continue;
      }
      push(input[at]);
      at += 1;
    }
    return pieces;
  };

  // interpolation: interpolationNode | interpolationResolver
  const interpolation = (): Interpolation => {
    if (!match(INTER_OPEN)) fail("expected '${'");
    const start = at;
    // resolverName: (interpolation | ID) (DOT (interpolation | ID))* followed by COLON
    const name: Piece[][] = [];
    for (;;) {
      if (startsWith('${')) name.push([interpolation()]);
      else {
        const id = match(INTER_ID);
        if (id === undefined) break;
        name.push([{ kind: 'text', text: id }]);
      }
      if (!startsWith('.')) break;
      at += 1;
    }
    if (name.length > 0 && match(COLON) !== undefined) {
      const args = startsWith('}') || /^[ \t]*\}/.test(input.slice(at)) ? [] : sequence('}');
      if (match(BRACE_CLOSE) === undefined) fail("missing '}' closing the resolver call");
      return { kind: 'resolver', name, args };
    }
    at = start;
    return { kind: 'node', key: nodeKey() };
  };

  // interpolationNode: DOT* (configKey | [configKey]) (DOT configKey | [configKey])* INTER_CLOSE
  const nodeKey = (): string => {
    let key = '';
    const configKey = () => {
      if (startsWith('${')) fail('an interpolation inside an interpolation key is not supported');
      const id = match(INTER_KEY);
      if (id === undefined) fail('expected a config key');
      key += id;
    };
    while (startsWith('.')) {
      key += '.';
      at += 1;
    }
    for (let first = true; ; first = false) {
      if (startsWith('[')) {
        at += 1;
        key += '[';
        configKey();
        if (!startsWith(']')) fail("expected ']'");
        at += 1;
        key += ']';
      } else if (first) configKey();
      else if (startsWith('.')) {
        at += 1;
        key += '.';
        configKey();
      } else break;
    }
    if (match(BRACE_CLOSE) === undefined) fail("expected '}' closing the interpolation");
    return key;
  };

  // sequence: (element (COMMA element?)*) | (COMMA element?)+ ; a missing element is "".
  const sequence = (close: '}' | ']'): Element[] => {
    const items: Element[] = [];
    let previousComma = true;
    const closes = () => (close === '}' ? /^[ \t]*\}/ : /^[ \t]*\]/).test(input.slice(at));
    while (at < input.length && !closes()) {
      if (match(COMMA) !== undefined) {
        if (previousComma) items.push({ kind: 'value', value: '' });
        previousComma = true;
        continue;
      }
      if (!previousComma) fail("expected ',' between arguments");
      items.push(element());
      previousComma = false;
    }
    if (previousComma && items.length > 0) items.push({ kind: 'value', value: '' });
    return items;
  };

  // element: primitive | quotedValue | listContainer | dictContainer
  const element = (): Element => {
    const c = input[at];
    if (c === "'" || c === '"') {
      at += 1;
      const pieces = text(c);
      if (input[at] !== c) fail('unterminated quoted string');
      at += 1;
      return { kind: 'quoted', pieces };
    }
    if (c === '[') {
      at += 1;
      match(/[ \t]*/y);
      const items = sequence(']');
      if (match(BRACKET_CLOSE) === undefined) fail("expected ']'");
      return { kind: 'list', items };
    }
    if (c === '{') {
      at += 1;
      match(/[ \t]*/y);
      const entries: Array<[Element, Element]> = [];
      while (!/^[ \t]*\}/.test(input.slice(at))) {
        if (entries.length > 0 && match(COMMA) === undefined) fail("expected ',' or '}' in a dict");
        const key = primitive(false);
        if (match(COLON) === undefined) fail("expected ':' after a dict key");
        entries.push([key, element()]);
      }
      match(BRACE_CLOSE);
      return { kind: 'dict', entries };
    }
    return primitive(true);
  };

  // primitive: (ID | NULL | INT | FLOAT | BOOL | UNQUOTED_CHAR | COLON | ESC | WS | interpolation)+ (dictKey: no COLON, no interpolation)
  const primitive = (full: boolean): Element => {
    const parts: Array<{ kind: string; text: string } | Interpolation> = [];
    for (;;) {
      if (full && startsWith('${')) {
        parts.push(interpolation());
        continue;
      }
      // Structural tokens (with the blanks they absorb) end a primitive.
      if (/^[ \t]*[,}\]]/.test(input.slice(at)) || (!full && /^[ \t]*:/.test(input.slice(at)))) break;
      if (full) {
        const colon = match(COLON);
        if (colon !== undefined) {
          parts.push({ kind: 'COLON', text: colon });
          continue;
        }
      }
      let best: { kind: string; text: string } | undefined;
      for (const [kind, re] of PRIMITIVE_TOKENS) {
        re.lastIndex = at;
        const m = re.exec(input);
        if (m && m[0].length > 0 && (!best || m[0].length > best.text.length)) best = { kind, text: m[0] };
      }
      if (!best) break;
      parts.push(best);
      at += best.text.length;
    }
    if (parts.length === 0) fail(`unexpected ${at < input.length ? `'${input[at]}'` : 'end of string'}`);
    if (parts.length === 1) {
      const only = parts[0];
      if ('key' in only || 'name' in only) return only;
      return { kind: 'value', value: convert(only.kind, only.text) };
    }
    const pieces: Piece[] = parts.map((p) => ('kind' in p && (p.kind === 'node' || p.kind === 'resolver') ? (p as Interpolation) : { kind: 'text', text: (p as { kind: string; text: string }).kind === 'ESC' ? halve((p as { text: string }).text) : (p as { text: string }).text }));
    return { kind: 'concat', pieces };
  };

  if (rule === 'singleElement') {
    const single = element();
    if (at !== input.length) fail('unexpected text after the element');
    return single;
  }
  const pieces = text(undefined);
  if (at !== input.length) fail('unexpected text');
  return pieces;
}

function halve(text: string): string {
  let out = '';
  for (let k = 1; k < text.length; k += 2) out += text[k];
  return out;
}

function convert(kind: string, text: string): null | boolean | number | string | PyFloat {
  switch (kind) {
    case 'INT':
      return Number(text.replaceAll('_', ''));
    case 'FLOAT': {
      const t = text.replaceAll('_', '').toLowerCase();
      if (t.endsWith('inf')) return new PyFloat(t.startsWith('-') ? -Infinity : Infinity);
      if (t.endsWith('nan')) return new PyFloat(NaN);
      return new PyFloat(Number(t));
    }
    case 'BOOL':
      return text.toLowerCase() === 'true';
    case 'NULL':
      return null;
    case 'ESC':
      return halve(text);
    default:
      return text;
  }
}
