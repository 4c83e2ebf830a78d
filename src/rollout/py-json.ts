/**
 * `json.loads` as CPython's C scanner runs it, including its error messages
 * ("Expecting ',' delimiter: line 1 column 12 (char 11)"). ROLL shows the
 * policy `str(JSONDecodeError)` for a malformed tool call, so the text (and the
 * position, counted in code points) has to be Python's. Like Python it accepts
 * NaN, Infinity and -Infinity.
 */

/** A parse failure with Python's message, e.g. `Expecting value: line 1 column 1 (char 0)`. */
export class PyJsonDecodeError extends Error {
  override name = 'JSONDecodeError';
  readonly pos: number;
  constructor(reason: string, chars: readonly string[], pos: number) {
    const before = chars.slice(0, pos);
    const line = before.filter((c) => c === '\n').length + 1;
    const lastNewline = before.lastIndexOf('\n');
    super(`${reason}: line ${line} column ${pos - lastNewline} (char ${pos})`);
    this.pos = pos;
  }
}

class StopIteration {
  readonly pos: number;
  constructor(pos: number) {
    this.pos = pos;
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Parses JSON text like Python's `json.loads`; throws {@link PyJsonDecodeError} with Python's message.
 *
 * @example
 * pyJsonLoads('{"a": 1,}') // throws "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)"
 */
export function pyJsonLoads(text: string): unknown {
  const s = Array.from(text);
  const end = s.length - 1;
  const fail = (reason: string, pos: number): never => {
    throw new PyJsonDecodeError(reason, s, pos);
  };
  const skipWs = (i: number) => {
    while (i <= end && WS.has(s[i])) i++;
    return i;
  };

  const scanString = (start: number): [string, number] => {
    const begin = start - 1;
    let out = '';
    let i = start;
    for (;;) {
      let c: string | undefined;
      for (; i <= end; i++) {
        c = s[i];
        if (c === '"' || c === '\\') break;
        if (c.codePointAt(0)! <= 0x1f) fail('Invalid control character at', i);
        out += c;
      }
      if (i > end) fail('Unterminated string starting at', begin);
      i++;
      if (c === '"') return [out, i];
      if (i > end) fail('Unterminated string starting at', begin);
      const esc = s[i];
      if (esc !== 'u') {
        if (!(esc in ESCAPES)) fail('Invalid \\escape', i - 1);
        out += ESCAPES[esc];
        i++;
        continue;
      }
      i++;
      const hexEnd = i + 4;
      if (hexEnd >= s.length) fail('Invalid \\uXXXX escape', i - 1);
      const readHex = (from: number): number => {
        const digits = s.slice(from, from + 4).join('');
        if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail('Invalid \\uXXXX escape', from - 1);
        return parseInt(digits, 16);
      };
      let code = readHex(i);
      i = hexEnd;
      // A high surrogate followed by an escaped low one is one character, as in Python.
      if (code >= 0xd800 && code <= 0xdbff && s[i] === '\\' && s[i + 1] === 'u' && i + 6 <= end) {
        const low = readHex(i + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
      out += String.fromCodePoint(code);
    }
  };

  const scanNumber = (start: number): [number, number] => {
    let i = start;
    if (s[i] === '-') {
      i++;
      if (i > end) throw new StopIteration(start);
    }
    if (s[i] >= '1' && s[i] <= '9') {
      i++;
      while (i <= end && isDigit(s[i])) i++;
    } else if (s[i] === '0') i++;
    else throw new StopIteration(start);
    if (i < end && s[i] === '.' && isDigit(s[i + 1])) {
      i += 2;
      while (i <= end && isDigit(s[i])) i++;
    }
    if (i < end && (s[i] === 'e' || s[i] === 'E')) {
      const eStart = i;
      i++;
      if (i < end && (s[i] === '-' || s[i] === '+')) i++;
      while (i <= end && isDigit(s[i])) i++;
      if (!isDigit(s[i - 1])) i = eStart;
    }
    return [Number(s.slice(start, i).join('')), i];
  };

  const word = (i: number, w: string) => s.slice(i, i + w.length).join('') === w;

  const scanOnce = (i: number): [unknown, number] => {
    if (i > end) throw new StopIteration(i);
    switch (s[i]) {
      case '"':
        return scanString(i + 1);
      case '{':
        return scanObject(i + 1);
      case '[':
        return scanArray(i + 1);
      case 'n':
        if (word(i, 'null')) return [null, i + 4];
        break;
      case 't':
        if (word(i, 'true')) return [true, i + 4];
        break;
      case 'f':
        if (word(i, 'false')) return [false, i + 5];
        break;
      case 'N':
        if (word(i, 'NaN')) return [NaN, i + 3];
        break;
      case 'I':
        if (word(i, 'Infinity')) return [Infinity, i + 8];
        break;
      case '-':
        if (word(i, '-Infinity')) return [-Infinity, i + 9];
        break;
    }
    return scanNumber(i);
  };

  const scanObject = (start: number): [Record<string, unknown>, number] => {
    const out: Record<string, unknown> = {};
    let i = skipWs(start);
    if (i > end || s[i] !== '}') {
      for (;;) {
        if (i > end || s[i] !== '"') fail('Expecting property name enclosed in double quotes', i);
        const [key, afterKey] = scanString(i + 1);
        i = skipWs(afterKey);
        if (i > end || s[i] !== ':') fail("Expecting ':' delimiter", i);
        i = skipWs(i + 1);
        const [value, afterValue] = scanOnce(i);
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        i = skipWs(afterValue);
        if (i <= end && s[i] === '}') break;
        if (i > end || s[i] !== ',') fail("Expecting ',' delimiter", i);
        i = skipWs(i + 1);
      }
    }
    return [out, i + 1];
  };

  const scanArray = (start: number): [unknown[], number] => {
    const out: unknown[] = [];
    let i = skipWs(start);
    if (i > end || s[i] !== ']') {
      for (;;) {
        const [value, afterValue] = scanOnce(i);
        out.push(value);
        i = skipWs(afterValue);
        if (i <= end && s[i] === ']') break;
        if (i > end || s[i] !== ',') fail("Expecting ',' delimiter", i);
        i = skipWs(i + 1);
      }
    }
    return [out, i + 1];
  };

  let value: unknown;
  let after: number;
  try {
    [value, after] = scanOnce(skipWs(0));
  } catch (error) {
    if (error instanceof StopIteration) fail('Expecting value', error.pos);
    throw error;
  }
  if (skipWs(after) !== s.length) fail('Extra data', skipWs(after));
  return value;
}

/**
 * Python's type name for a parsed JSON value, as `type(x)` prints it (`<class 'list'>`).
 *
 * @example
 * pyTypeName([1]) // "<class 'list'>"
 */
export function pyTypeName(value: unknown): string {
  const name =
    value === null ? 'NoneType' : Array.isArray(value) ? 'list' : typeof value === 'string' ? 'str' : typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'float') : 'dict';
  return `<class '${name}'>`;
}
