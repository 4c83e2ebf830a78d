/**
 * A JSON scanner that knows where things are: the line and column of a syntax error, and of each
 * value (or object key) by its JSON path. JSON.parse still produces the values; this only locates,
 * because V8's messages sometimes carry no position ("Unexpected end of JSON input").
 */

export type JsonPath = ReadonlyArray<string | number>;

export interface JsonPosition {
  line: number;
  column: number;
}

export interface JsonSyntaxProblem extends JsonPosition {
  message: string;
}

export type JsonScan =
  | { ok: true; value: unknown; locate: (path: JsonPath) => JsonPosition | undefined }
  | { ok: false; error: JsonSyntaxProblem };

const WS = new Set([' ', '\t', '\n', '\r']);
/** Deeper nesting is reported, not recursed into (no scenario needs it; a stack overflow would crash). */
const MAX_DEPTH = 256;

function pathKey(path: JsonPath): string {
  return path.map((p) => (typeof p === 'number' ? `#${p}` : `.${p}`)).join('\u0000');
}

class Scanner {
  i = 0;
  readonly text: string;
  /** Offsets of object keys (for members) and values (for array items and the root), by path. */
  readonly offsets = new Map<string, number>();

  constructor(text: string) {
    this.text = text;
  }

  fail(message: string, at = this.i): never {
    throw new JsonScanFailure(message, at);
  }

  describeHere(): string {
    if (this.i >= this.text.length) return 'end of input';
    return JSON.stringify(this.text[this.i]);
  }

  ws(): void {
    while (this.i < this.text.length && WS.has(this.text[this.i])) this.i++;
  }

  value(path: Array<string | number>): void {
    this.ws();
    if (path.length > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    const c = this.text[this.i];
    if (c === '{') return this.object(path);
    if (c === '[') return this.array(path);
    if (c === '"') return void this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    this.fail(`unexpected ${this.describeHere()}, expected a JSON value`);
  }

  object(path: Array<string | number>): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') {
        const trailing = this.text[this.i] === '}';
        this.fail(trailing ? 'trailing comma before "}"' : `unexpected ${this.describeHere()}, expected a double-quoted property name`);
      }
      const keyAt = this.i;
      const key = this.string();
      this.offsets.set(pathKey([...path, key]), keyAt);
      this.ws();
      if (this.text[this.i] !== ':') this.fail(`unexpected ${this.describeHere()}, expected ":" after property name`);
      this.i++;
      this.value([...path, key]);
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === '}') {
        this.i++;
        return;
      }
      this.fail(`unexpected ${this.describeHere()}, expected "," or "}" after property value`);
    }
  }

  array(path: Array<string | number>): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    for (let n = 0; ; n++) {
      this.ws();
      if (this.text[this.i] === ']') this.fail('trailing comma before "]"');
      this.offsets.set(pathKey([...path, n]), this.i);
      this.value([...path, n]);
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === ']') {
        this.i++;
        return;
      }
      this.fail(`unexpected ${this.describeHere()}, expected "," or "]" after array item`);
    }
  }

  string(): string {
    const start = this.i;
    this.i++;
    for (;;) {
      if (this.i >= this.text.length) this.fail('unterminated string', start);
      const c = this.text[this.i];
      if (c === '"') break;
      if (c === '\\') {
        const e = this.text[this.i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.i + 2, this.i + 6))) this.fail('bad \\u escape in string');
          this.i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) this.fail('bad escape in string');
        this.i += 2;
        continue;
      }
      if (c < ' ') this.fail('control character (such as a raw newline) inside a string');
      this.i++;
    }
    this.i++;
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }

  number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i, this.i + 400));
    if (!m) this.fail('bad number');
    this.i += m[0].length;
  }
}

class JsonScanFailure extends Error {
  readonly at: number;
  constructor(message: string, at: number) {
    super(message);
    this.at = at;
  }
}

function positionOf(text: string, offset: number): JsonPosition {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Parses JSON, locating a syntax error or, on success, any value by its path.
 * @example
 *   const scan = scanJson('{\n  "a": [1, 2]\n}');
 *   if (scan.ok) scan.locate(['a', 1]); // { line: 2, column: 12 }
 */
export function scanJson(input: string): JsonScan {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const scanner = new Scanner(text);
  try {
    scanner.ws();
    if (scanner.i >= text.length) scanner.fail('the file is empty, expected a JSON value');
    scanner.offsets.set(pathKey([]), scanner.i);
    scanner.value([]);
    scanner.ws();
    if (scanner.i < text.length) scanner.fail(`unexpected ${scanner.describeHere()} after the end of the JSON value`);
  } catch (err) {
    if (!(err instanceof JsonScanFailure)) throw err;
    return { ok: false, error: { ...positionOf(text, err.at), message: err.message } };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // The scanner accepted what V8 rejects: report V8's words at the start.
    return { ok: false, error: { line: 1, column: 1, message: (err as Error).message } };
  }
  const locate = (path: JsonPath): JsonPosition | undefined => {
    // Fall back to the nearest located ancestor (a missing key is reported at its object).
    for (let n = path.length; n >= 0; n--) {
      const at = scanner.offsets.get(pathKey(path.slice(0, n)));
      if (at !== undefined) return positionOf(text, at);
    }
    return undefined;
  };
  return { ok: true, value, locate };
}
