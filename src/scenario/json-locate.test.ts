import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanJson, type JsonPath } from './json-locate.ts';

/** Every path in a JSON value, with what should sit at its location: the key for members, else the value. */
function paths(value: unknown, path: Array<string | number> = []): Array<{ path: JsonPath; expectStart: string }> {
  const out: Array<{ path: JsonPath; expectStart: string }> = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push({ path: [...path, i], expectStart: JSON.stringify(v).slice(0, 1) });
      out.push(...paths(v, [...path, i]));
    });
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push({ path: [...path, k], expectStart: JSON.stringify(k) });
      out.push(...paths(v, [...path, k]));
    }
  }
  return out;
}

function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  return lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
}

describe('scanJson', () => {
  it('locates every key and array item of every scenario fixture exactly', () => {
    const dir = 'fixtures/scenarios';
    let checked = 0;
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      const text = readFileSync(join(dir, name), 'utf8');
      const scan = scanJson(text);
      if (!scan.ok) throw new Error(`${name}: ${scan.error.message}`);
      expect(scan.value).toEqual(JSON.parse(text));
      for (const { path, expectStart } of paths(scan.value)) {
        const pos = scan.locate(path)!;
        expect(text.startsWith(expectStart, offsetOf(text, pos.line, pos.column)), `${name} ${JSON.stringify(path)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('falls back to the nearest ancestor for paths that are not in the file', () => {
    const scan = scanJson('{\n  "a": {\n    "b": 1\n  }\n}');
    if (!scan.ok) throw new Error('unexpected');
    expect(scan.locate(['a', 'missing'])).toEqual({ line: 2, column: 3 });
    expect(scan.locate([])).toEqual({ line: 1, column: 1 });
  });

  it('reports absurd nesting instead of overflowing the stack', () => {
    const scan = scanJson('['.repeat(100_000));
    expect(scan.ok).toBe(false);
    if (!scan.ok) expect(scan.error).toEqual({ line: 1, column: 258, message: 'nested deeper than 256 levels' });
  });

  it('agrees with JSON.parse on what is valid', () => {
    const samples = ['1', '-0.5e+3', '"\\u00e9\\n"', 'true', 'null', '[]', '{}', ' [ { "a" : [ 1 , { } ] } ] ', '01', '1.', '.5', '+1', '[1,]', '{"a":1,}', 'nul', '"\\u12"', '"a\tb"', '{"a" 1}', '[1 2]', 'tru e', '1 2'];
    for (const s of samples) {
      let valid = true;
      try {
        JSON.parse(s);
      } catch {
        valid = false;
      }
      expect(scanJson(s).ok, s).toBe(valid);
    }
  });
});
