/**
 * OmegaConf's own cases: tests/test_grammar.py (the element table, read here through
 * `oc.decode`, which parses OmegaConf's singleElement rule), tests/interpolation/
 * built_in_resolvers/test_oc_env.py, and interpolation/escaping cases.
 */
import { describe, expect, it } from 'vitest';
import { interpolate } from './config-interpolate.ts';

const decode = (text: string) => interpolate({ text, out: '${oc.decode:${text}}' }, {}).out;

describe('OmegaConf test_grammar.py elements (through oc.decode)', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['TrUe', true],
    ['falsE', false],
    ['true_false', 'true_false'],
    ['123', 123],
    ['+123', 123],
    ['-123', -123],
    ['1_000', 1000],
    ['1_000_', '1_000_'],
    ['1__000', '1__000'],
    ['_1000', '_1000'],
    ['007', '007'],
    ['1.1', 1.1],
    ['.1', 0.1],
    ['1.', 1],
    ['-.2', -0.2],
    ['+.2', 0.2],
    ['1.1_1', 1.11],
    ['1_1_2.1', 112.1],
    ['1.+2', '1.+2'],
    ['1\\.2', '1\\.2'],
    ['1.2_', '1.2_'],
    ['1__1.2', '1__1.2'],
    ['-1e2', -100],
    ['+1E-2', 0.01],
    ['1_0e1_0', 10e10],
    ['1.07e+2', 107],
    ['1e+03', 1000],
    ['e-2', 'e-2'],
    ['01e2', '01e2'],
    ['0_e0', '0_e0'],
    ['inf', Infinity],
    ['+inf', Infinity],
    ['-inf', -Infinity],
    ['.', '.'],
    ['$', '$'],
    [':', ':'],
    ['hello world', 'hello world'],
    ['a b\tc  \t\t  d', 'a b\tc  \t\t  d'],
    ['\\ hello\\ world\\ ', ' hello world '],
    ['\\ \\\t\\\t', ' \t\t'],
    ['hello\\, world', 'hello, world'],
    ['a\\:b', 'a:b'],
    ['a\\=b', 'a=b'],
    ['\\(foo\\)', '(foo)'],
    ['\\[foo\\]', '[foo]'],
    ['\\{foo\\}', '{foo}'],
    ['\\', '\\'],
    ['ab\\cd', 'ab\\cd'],
    ["'!@#$%^&*|()[]:.,\"'", '!@#$%^&*|()[]:.,"'],
    ['"!@#$%^&*|()[]:.,\'"', "!@#$%^&*|()[]:.,'"],
    ["'  a \t'", '  a \t'],
    ['"  a \t"', '  a \t'],
    ["'123'", '123'],
    ["'null'", 'null'],
    ['[\'truE\', "FalSe"]', ['truE', 'FalSe']],
    ["'[a,b, c]'", '[a,b, c]'],
    ['"{a:b, c: d}"', '{a:b, c: d}'],
    ["'a\\b'", 'a\\b'],
    ['"a\\b"', 'a\\b'],
    ["'abc\\\\'", 'abc\\'],
    ["'abc\\\\\\\\'", 'abc\\\\'],
    ["'abc\\def'", 'abc\\def'],
    ["'abc\\\\def'", 'abc\\\\def'],
    ["'\\\\\\abc\\def'", '\\\\\\abc\\def'],
    ["'abc\\\\$$'", 'abc\\\\$$'],
    ['[1, a, {b: 2, c: [x, y]}]', [1, 'a', { b: 2, c: ['x', 'y'] }]],
  ])('%j', (text, expected) => {
    expect(decode(text)).toEqual(expected);
  });

  it('nan', () => {
    expect(decode('nan')).toBeNaN();
    expect(decode('-nan')).toBeNaN();
  });

  it.each(['a,=b', String.fromCodePoint(200), String.fromCodePoint(129299), '\\#', "\\'\\\"", "'Hi''there'", "''a'", "'a''", "''a''"])('%j is a GrammarParseError', (text) => {
    expect(() => decode(text)).toThrow('GrammarParseError');
  });
});

describe('oc.env (OmegaConf test_oc_env.py)', () => {
  it('simple, default, default with a slash', () => {
    expect(interpolate({ path: '/test/${oc.env:foo}' }, { foo: '1234' })).toEqual({ path: '/test/1234' });
    expect(interpolate({ path: '/test/${oc.env:not_found,ZZZ}' }, {})).toEqual({ path: '/test/ZZZ' });
    expect(interpolate({ path: '/test/${oc.env:not_found,a/b}' }, {})).toEqual({ path: '/test/a/b' });
  });

  it("a missing variable without default is OmegaConf's KeyError", () => {
    expect(() => interpolate({ x: [{ url: '${oc.env:not_found}' }] }, {})).toThrow(
      `KeyError raised while resolving interpolation: "Environment variable 'not_found' not found"\n    full_key: x.0.url`,
    );
  });

  it.each(['false', '123', '1.5', 'null', '${x}', '[1, 2]'])('preserves the variable as a string: %s', (value) => {
    expect(interpolate({ my_key: '${oc.env:MYKEY}' }, { MYKEY: value }).my_key).toBe(value);
  });

  it('test_env_default_none: `null` gives None, not "null"', () => {
    expect(interpolate({ my_key: '${oc.env:MYKEY, null}' }, {}).my_key).toBeNull();
  });

  it('test_env_non_str_default: the default is str(default)', () => {
    expect(interpolate({ my_key: '${oc.env:MYKEY, 123}' }, { MYKEY: '456' }).my_key).toBe('456');
    expect(interpolate({ my_key: '${oc.env:MYKEY, 123}' }, {}).my_key).toBe('123');
    expect(interpolate({ a: '${oc.env:X,1e3}', b: '${oc.env:X,true}', c: '${oc.env:X,[1, a]}', d: "${oc.env:X,'quoted, with comma'}" }, {})).toEqual({
      a: '1000.0',
      b: 'True',
      c: "[1, 'a']",
      d: 'quoted, with comma',
    });
  });

  it('nested defaults resolve innermost first', () => {
    expect(interpolate({ v: '${oc.env:A,${oc.env:B,zz}}' }, {}).v).toBe('zz');
    expect(interpolate({ v: '${oc.env:A,${oc.env:B,zz}}' }, { B: 'b' }).v).toBe('b');
    expect(interpolate({ v: '${oc.env:A,${oc.env:B,zz}}' }, { A: 'a', B: 'b' }).v).toBe('a');
  });
});

describe('node interpolation and escapes', () => {
  it('whole-string references keep the type; embedded ones use str(); relative keys; lists', () => {
    const config = interpolate(
      {
        d: { steps: 4, flag: true, none: null, ratio: 0.5, sub: { x: '${..steps}', y: '${.z}', z: 1 } },
        e: '${d.steps}',
        f: 'steps=${d.steps} flag=${d.flag} none=${d.none} ratio=${d.ratio}',
        g: ['${d.steps}', '${d[flag]}'],
        h: '${d.sub}',
      },
      {},
    );
    expect(config).toEqual({
      d: { steps: 4, flag: true, none: null, ratio: 0.5, sub: { x: 4, y: 1, z: 1 } },
      e: 4,
      f: 'steps=4 flag=True none=None ratio=0.5',
      g: [4, true],
      h: { x: 4, y: 1, z: 1 },
    });
  });

  it('escapes: \\${ is literal, \\\\${x} is a backslash then the value, other backslashes stay', () => {
    expect(interpolate({ x: 'X', a: '\\${x}', b: '\\\\${x}', c: '\\\\\\${x}', d: 'C:\\\\dir\\file ${x}', e: 'no interpolation \\ here' }, {})).toEqual({
      x: 'X',
      a: '${x}',
      b: '\\X',
      c: '\\${x}',
      d: 'C:\\\\dir\\file X',
      e: 'no interpolation \\ here',
    });
  });

  it("errors: unknown resolver (the removed env: too), missing key, recursion — OmegaConf's wording and the key", () => {
    expect(() => interpolate({ x: '${env:HOME}' }, {})).toThrow('Unsupported interpolation type env\n    full_key: x');
    expect(() => interpolate({ x: '${y.z}' }, {})).toThrow("Interpolation key 'y.z' not found\n    full_key: x");
    expect(() => interpolate({ x: '${y}', y: '${x}' }, {})).toThrow('Recursive interpolation detected');
    expect(() => interpolate({ x: '${oc.env:A' }, {})).toThrow('GrammarParseError');
  });
});
