/**
 * Python's `repr`, `str` and `pprint.pformat` for JSON values. ROLL's and GEM's
 * texts are Python f-strings over parsed JSON (jsonschema messages, tool lists,
 * `str(default)` in OmegaConf), so reproducing them byte for byte needs Python's
 * spelling of strings, numbers, booleans, None, lists and dicts.
 */

// Characters Python's str.isprintable() rejects (other than the plain space), which repr escapes.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

/**
 * Python's `repr(s)` of a string: single quotes unless the text has a `'` and no `"`.
 *
 * @example
 * pyStrRepr("it's") // "\"it's\""
 */
export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (NON_PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!;
      out += code < 0x100 ? `\\x${hex(code, 2)}` : code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
    } else out += ch;
  }
  return out + quote;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/**
 * Python's `repr` of a float (shortest round-trip digits; exponent form below 1e-4 and from 1e16).
 * JSON integers come back as JS integers, so callers print those as ints.
 *
 * @example
 * pyFloatRepr(1e-5) // '1e-05'
 */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = value.toExponential().split('e');
  const exp = Number(expText);
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = value < 0 ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${body}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac || '0'}`;
}

/**
 * Python's `repr` of a parsed JSON value (`None`, `True`, `'text'`, `[1, 2]`, `{'a': 1}`).
 *
 * @example
 * pyRepr({ a: [1, 'x', null, true] }) // "{'a': [1, 'x', None, True]}"
 */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return pyStrRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
  return pyStrRepr(String(value));
}

/**
 * Python's `str(value)`: strings as they are, everything else as `repr`.
 *
 * @example
 * pyStr(true) // 'True'
 */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

/**
 * Python's `pprint.pformat(value, width, sort_dicts=False)` for JSON values: the repr when it
 * fits, else one item per line (dicts and lists) and long strings split into adjacent literals.
 *
 * @example
 * pyPformat({ type: 'integer' }) // "{'type': 'integer'}"
 */
export function pyPformat(value: unknown, width = 72): string {
  let out = '';
  const write = (s: string) => (out += s);

  const format = (object: unknown, indent: number, allowance: number, level: number): void => {
    const rep = pyRepr(object);
    if (rep.length > width - indent - allowance) {
      if (Array.isArray(object)) return pprintList(object, indent, allowance, level + 1);
      if (typeof object === 'string') return pprintStr(object, indent, allowance, level + 1);
      if (typeof object === 'object' && object !== null) return pprintDict(object as Record<string, unknown>, indent, allowance, level + 1);
    }
    write(rep);
  };

  const pprintDict = (object: Record<string, unknown>, indent: number, allowance: number, level: number): void => {
    write('{');
    const items = Object.entries(object);
    const inner = indent + 1;
    items.forEach(([key, entry], i) => {
      const last = i === items.length - 1;
      const rep = pyStrRepr(key);
      write(`${rep}: `);
      format(entry, inner + rep.length + 2, last ? allowance + 1 : 1, level);
      if (!last) write(`,\n${' '.repeat(inner)}`);
    });
    write('}');
  };

  const pprintList = (object: unknown[], indent: number, allowance: number, level: number): void => {
    write('[');
    const inner = indent + 1;
    object.forEach((entry, i) => {
      const last = i === object.length - 1;
      if (i > 0) write(`,\n${' '.repeat(inner)}`);
      format(entry, inner, last ? allowance + 1 : 1, level);
    });
    write(']');
  };

  const pprintStr = (object: string, indent: number, allowance: number, level: number): void => {
    if (object.length === 0) return void write(pyStrRepr(object));
    const chunks: string[] = [];
    const lines = object.match(/[^\n]*\n|[^\n]+$/g) ?? [object];
    if (level === 1) {
      indent += 1;
      allowance += 1;
    }
    let maxWidth1 = width - indent;
    const maxWidth = width - indent;
    let rep = '';
    lines.forEach((line, i) => {
      rep = pyStrRepr(line);
      if (i === lines.length - 1) maxWidth1 -= allowance;
      if (rep.length <= maxWidth1) return void chunks.push(rep);
      const parts = line.match(/\S*\s*/g)!.filter((p, j, all) => j < all.length - 1 || p !== '');
      let maxWidth2 = maxWidth;
      let current = '';
      parts.forEach((part, j) => {
        const candidate = current + part;
        if (j === parts.length - 1 && i === lines.length - 1) maxWidth2 -= allowance;
        if (pyStrRepr(candidate).length > maxWidth2) {
          if (current) chunks.push(pyStrRepr(current));
          current = part;
        } else current = candidate;
      });
      if (current) chunks.push(pyStrRepr(current));
    });
    if (chunks.length === 1) return void write(rep);
    if (level === 1) write('(');
    chunks.forEach((chunk, i) => write(i > 0 ? `\n${' '.repeat(indent)}${chunk}` : chunk));
    if (level === 1) write(')');
  };

  format(value, 0, 0, 0);
  return out;
}
