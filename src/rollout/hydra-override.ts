/**
 * A reader for Hydra's command-line override grammar (hydra/grammar/OverrideLexer.g4 and
 * OverrideParser.g4), written as the grammar reads: an ANTLR-style lexer (longest match,
 * earlier rule on ties; a key mode and a value mode) and a recursive-descent parser with
 * one function per parser rule. Values convert as Hydra's visitor converts them:
 * `trUe` → true, `10_0` → 100, `inf` → Infinity, `null` → null, `a\,b` → "a,b",
 * `{a:10}` → { a: 10 }, quoted strings unescaped. `key=1,2,3` parses as a sweep.
 */

export type OverrideValue = null | boolean | number | string | OverrideValue[] | { [key: string]: OverrideValue };

/** A parsed override: Hydra's `Override` (type, key, package, value, value type, input line). */
export interface HydraOverride {
  type: 'change' | 'add' | 'force_add' | 'del';
  key: string;
  package: string | undefined;
  /** undefined for `~key` without a value. */
  value: OverrideValue | undefined;
  valueType: 'element' | 'simple_choice_sweep' | 'sweep' | undefined;
  inputLine: string;
}

/** A syntax error in an override, with Hydra's envelope and the position. */
export class OverrideSyntaxError extends Error {
  override name = 'OverrideParseException';
}

type Kind =
  | 'EQUAL' | 'TILDE' | 'PLUS' | 'AT' | 'COLON' | 'SLASH' | 'ID' | 'KEY_SPECIAL' | 'DOT_PATH'
  | 'POPEN' | 'COMMA' | 'PCLOSE' | 'BRACKET_OPEN' | 'BRACKET_CLOSE' | 'BRACE_OPEN' | 'BRACE_CLOSE'
  | 'FLOAT' | 'INT' | 'BOOL' | 'NULL' | 'UNQUOTED_CHAR' | 'ESC' | 'WS' | 'QUOTED_VALUE' | 'INTERPOLATION' | 'EOF';

interface Token {
  kind: Kind;
  text: string;
  at: number;
}

const INT_U = '(?:0|[1-9](?:_?[0-9])*)';
const DIGITS = '[0-9](?:_?[0-9])*';
const POINT_FLOAT = [`${INT_U}\\.`, `${INT_U}?\\.${DIGITS}`];
const EXP = `[eE][+-]?${DIGITS}`;
const KEY_SPECIAL = '[a-zA-Z_$][a-zA-Z0-9_\\-$]*';
const WS = '[ \\t]';

// Each rule: its token kind and the alternatives of its pattern; a rule matches as long as its longest alternative.
type Rule = [Kind, RegExp[]];
const rule = (kind: Kind, ...patterns: string[]): Rule => [kind, patterns.map((p) => new RegExp(p, 'y'))];

const KEY_RULES: Rule[] = [
  rule('EQUAL', `=${WS}*`),
  rule('TILDE', '~'),
  rule('PLUS', '\\+'),
  rule('AT', '@'),
  rule('COLON', ':'),
  rule('SLASH', '/'),
  rule('ID', '[a-zA-Z_][a-zA-Z0-9_\\-]*'),
  rule('KEY_SPECIAL', KEY_SPECIAL),
  rule('DOT_PATH', `(?:${KEY_SPECIAL}|${INT_U})(?:\\.(?:${KEY_SPECIAL}|${INT_U}))+`),
];

const VALUE_RULES: Rule[] = [
  rule('POPEN', `${WS}*\\(${WS}*`),
  rule('COMMA', `${WS}*,${WS}*`),
  rule('PCLOSE', `${WS}*\\)`),
  rule('BRACKET_OPEN', `\\[${WS}*`),
  rule('BRACKET_CLOSE', `${WS}*\\]`),
  rule('BRACE_OPEN', `\\{${WS}*`),
  rule('BRACE_CLOSE', `${WS}*\\}`),
  rule('COLON', `${WS}*:${WS}*`),
  rule('EQUAL', `${WS}*=${WS}*`),
  rule('FLOAT', ...POINT_FLOAT.map((p) => `[+-]?${p}`), `[+-]?(?:${INT_U}|${POINT_FLOAT.join('|')})${EXP}`, '[+-]?(?:[Ii][Nn][Ff]|[Nn][Aa][Nn])'),
  rule('INT', `[+-]?${INT_U}`),
  rule('BOOL', '[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]'),
  rule('NULL', '[Nn][Uu][Ll][Ll]'),
  rule('UNQUOTED_CHAR', '[/\\-\\\\+.$%*@?|]'),
  rule('ID', '[a-zA-Z_][a-zA-Z0-9_\\-]*'),
  rule('ESC', '(?:\\\\\\\\|\\\\\\(|\\\\\\)|\\\\\\[|\\\\\\]|\\\\\\{|\\\\\\}|\\\\:|\\\\=|\\\\,|\\\\ |\\\\\\t)+'),
  rule('WS', `${WS}+`),
  rule('QUOTED_VALUE', '"(?:(?:\\\\\\\\)*|[\\s\\S]*?[^\\\\](?:\\\\\\\\)*)"', "'(?:(?:\\\\\\\\)*|[\\s\\S]*?[^\\\\](?:\\\\\\\\)*)'"),
  rule('INTERPOLATION', '\\$\\{[^}]+\\}'),
];

function lex(text: string, fail: (why: string, at: number) => never): Token[] {
  const tokens: Token[] = [];
  let rules = KEY_RULES;
  let at = 0;
  while (at < text.length) {
    let best: Token | undefined;
    for (const [kind, patterns] of rules) {
      for (const pattern of patterns) {
        pattern.lastIndex = at;
        const m = pattern.exec(text);
        if (m && m[0].length > 0 && (!best || m[0].length > best.text.length)) best = { kind, text: m[0], at };
      }
    }
    if (!best) fail(`token recognition error at: '${text[at]}'`, at);
    // KEY_ID is typed ID; in the key mode `=` switches to the value mode.
    tokens.push(best);
    if (rules === KEY_RULES && best.kind === 'EQUAL') rules = VALUE_RULES;
    at += best.text.length;
  }
  tokens.push({ kind: 'EOF', text: '<EOF>', at: text.length });
  return tokens;
}

const PRIMITIVE_KINDS = new Set<Kind>(['ID', 'NULL', 'INT', 'FLOAT', 'BOOL', 'INTERPOLATION', 'UNQUOTED_CHAR', 'COLON', 'ESC', 'WS']);
const DICT_KEY_KINDS = new Set<Kind>(['ID', 'NULL', 'INT', 'FLOAT', 'BOOL', 'UNQUOTED_CHAR', 'ESC', 'WS']);
const SWEEP_FUNCTIONS = new Set(['choice', 'range', 'interval', 'glob', 'shuffle', 'sort', 'tag']);

/**
 * Parses one override as Hydra does; throws {@link OverrideSyntaxError} naming the position.
 *
 * @example
 * parseOverride('+a.b={x:10,y:[1,2]}') // { type: 'add', key: 'a.b', value: { x: 10, y: [1, 2] }, valueType: 'element', ... }
 */
export function parseOverride(line: string): HydraOverride {
  const fail = (why: string, at: number): never => {
    throw new OverrideSyntaxError(`Error parsing override '${line}'\n${why}\n${line}\n${' '.repeat(at)}^\nSee https://hydra.cc/docs/advanced/override_grammar/basic for details`);
  };
  const tokens = lex(line, fail);
  let i = 0;
  const peek = (offset = 0) => tokens[Math.min(i + offset, tokens.length - 1)];
  const expect = (kind: Kind): Token => {
    const token = peek();
    if (token.kind !== kind) fail(`mismatched input '${token.text}' expecting ${kind}`, token.at);
    i++;
    return token;
  };

  // override: key EQUAL value? | TILDE key (EQUAL value?)? | PLUS PLUS? key EQUAL value?
  let type: HydraOverride['type'] = 'change';
  if (peek().kind === 'TILDE') {
    i++;
    type = 'del';
  } else if (peek().kind === 'PLUS') {
    i++;
    type = 'add';
    if (peek().kind === 'PLUS') {
      i++;
      type = 'force_add';
    }
  }
  const { key, pkg } = parseKey();
  let value: OverrideValue | undefined;
  let valueType: HydraOverride['valueType'];
  if (type !== 'del' || peek().kind === 'EQUAL') {
    expect('EQUAL');
    if (peek().kind === 'EOF') {
      value = '';
      valueType = 'element';
    } else {
      [value, valueType] = parseValue();
    }
  }
  expect('EOF');
  return { type, key, package: pkg, value, valueType, inputLine: line };

  // key: packageOrGroup (AT package)?  packageOrGroup: package | ID (SLASH ID)+  package: ( | ID | KEY_SPECIAL | DOT_PATH)
  function parseKey(): { key: string; pkg: string | undefined } {
    let key = '';
    if (peek().kind === 'ID' && peek(1).kind === 'SLASH') {
      key = expect('ID').text;
      while (peek().kind === 'SLASH') {
        i++;
        key += `/${expect('ID').text}`;
      }
    } else if (['ID', 'KEY_SPECIAL', 'DOT_PATH'].includes(peek().kind)) {
      key = tokens[i++].text;
    }
    let pkg: string | undefined;
    if (peek().kind === 'AT') {
      i++;
      pkg = ['ID', 'KEY_SPECIAL', 'DOT_PATH'].includes(peek().kind) ? tokens[i++].text : '';
    }
    return { key, pkg };
  }

  // value: element | simpleChoiceSweep
  function parseValue(): [OverrideValue, HydraOverride['valueType']] {
    const [first, firstSweep] = parseElement();
    if (peek().kind !== 'COMMA') return [first, firstSweep ? 'sweep' : 'element'];
    const choices = [first];
    while (peek().kind === 'COMMA') {
      i++;
      choices.push(parseElement()[0]);
    }
    return [choices, 'simple_choice_sweep'];
  }

  // element: primitive | listContainer | dictContainer | function  (the boolean: a sweep function)
  function parseElement(): [OverrideValue, boolean] {
    const token = peek();
    if (token.kind === 'BRACKET_OPEN') return [parseList(), false];
    if (token.kind === 'BRACE_OPEN') return [parseDict(), false];
    if (token.kind === 'ID' && peek(1).kind === 'POPEN') return parseFunction();
    return [parsePrimitive(PRIMITIVE_KINDS), false];
  }

  function parseList(): OverrideValue[] {
    expect('BRACKET_OPEN');
    const items: OverrideValue[] = [];
    if (peek().kind !== 'BRACKET_CLOSE') {
      items.push(parseElement()[0]);
      while (peek().kind === 'COMMA') {
        i++;
        items.push(parseElement()[0]);
      }
    }
    expect('BRACKET_CLOSE');
    return items;
  }

  function parseDict(): { [key: string]: OverrideValue } {
    expect('BRACE_OPEN');
    const out: { [key: string]: OverrideValue } = {};
    const pair = () => {
      const key = parsePrimitive(DICT_KEY_KINDS);
      expect('COLON');
      Object.defineProperty(out, String(key), { value: parseElement()[0], enumerable: true, writable: true, configurable: true });
    };
    if (peek().kind !== 'BRACE_CLOSE') {
      pair();
      while (peek().kind === 'COMMA') {
        i++;
        pair();
      }
    }
    expect('BRACE_CLOSE');
    return out;
  }

  // function: ID POPEN (argName? element (COMMA argName? element)*)? PCLOSE — only sweeps are recognised.
  function parseFunction(): [OverrideValue, boolean] {
    const name = expect('ID');
    expect('POPEN');
    const args: OverrideValue[] = [];
    while (peek().kind !== 'PCLOSE') {
      if (args.length > 0) expect('COMMA');
      if (peek().kind === 'ID' && peek(1).kind === 'EQUAL') i += 2;
      args.push(parseElement()[0]);
    }
    expect('PCLOSE');
    if (!SWEEP_FUNCTIONS.has(name.text)) fail(`function '${name.text}' is not supported here (only the sweeps ${[...SWEEP_FUNCTIONS].join(', ')} are recognised, and refused without --multirun)`, name.at);
    return [args, true];
  }

  // primitive: QUOTED_VALUE | (ID | NULL | INT | FLOAT | BOOL | INTERPOLATION | UNQUOTED_CHAR | COLON | ESC | WS)+
  function parsePrimitive(kinds: Set<Kind>): OverrideValue {
    if (kinds === PRIMITIVE_KINDS && peek().kind === 'QUOTED_VALUE') return unquote(tokens[i++].text);
    const start = i;
    while (kinds.has(peek().kind)) i++;
    const parts = tokens.slice(start, i);
    if (parts.length === 0) fail(`mismatched input '${peek().text}'`, peek().at);
    let first = 0;
    let last = parts.length;
    if (parts[0].kind === 'WS') {
      if (parts.length === 1) fail('Trying to parse a primitive that is all whitespaces', parts[0].at);
      first = 1;
    }
    if (parts.at(-1)!.kind === 'WS') last--;
    const kept = parts.slice(first, last);
    if (kept.length > 1) return kept.map((t) => (t.kind === 'ESC' ? unescape(t.text) : t.text)).join('');
    return convert(kept[0]);
  }
}

function unescape(text: string): string {
  let out = '';
  for (let k = 1; k < text.length; k += 2) out += text[k];
  return out;
}

function convert(token: Token): OverrideValue {
  switch (token.kind) {
    case 'INT':
      return Number(token.text.replaceAll('_', ''));
    case 'FLOAT': {
      const t = token.text.replaceAll('_', '').toLowerCase();
      if (t.endsWith('inf')) return t.startsWith('-') ? -Infinity : Infinity;
      if (t.endsWith('nan')) return NaN;
      return Number(t);
    }
    case 'NULL':
      return null;
    case 'BOOL':
      return token.text.toLowerCase() === 'true';
    case 'ESC':
      return unescape(token.text);
    default:
      return token.text;
  }
}

/** Hydra's `_unescape_quoted_string`: only backslashes before a quote of the same kind are escapes. */
function unquote(text: string): string {
  const quote = text[0];
  const body = text.slice(1, -1);
  return body.replace(new RegExp(`(\\\\+)(?=${quote}|$)`, 'g'), (run: string) => '\\'.repeat(Math.floor(run.length / 2)));
}
