/**
 * Cases from Hydra's own tests/test_overrides_parser.py (test_element, test_primitive,
 * test_list_container, test_dict_container, test_primitive_quoted_string, test_key,
 * test_override, test_override_del), inputs and expected values as Hydra states them.
 */
import { describe, expect, it } from 'vitest';
import { parseOverride, type OverrideValue } from './hydra-override.ts';

const value = (text: string): OverrideValue | undefined => parseOverride(`key=${text}`).value;
const UNQUOTED_SPECIAL = '/-\\+.$%*@?|';

describe('Hydra test_element / test_primitive', () => {
  it.each<[string, OverrideValue]>([
    ['abc', 'abc'],
    ['abc123', 'abc123'],
    ['abc-123', 'abc-123'],
    ['a b c\t-\t1 2 3', 'a b c\t-\t1 2 3'],
    [' abc-123 ', 'abc-123'],
    ['123abc', '123abc'],
    ['a\\,b', 'a,b'],
    ['a\\:b', 'a:b'],
    ['a\\=b', 'a=b'],
    ['\\ ab', ' ab'],
    ['ab\\\t', 'ab\t'],
    ['ab\\\\', 'ab\\'],
    ['\\,', ','],
    ['f\\(a\\, b\\)', 'f(a, b)'],
    ['\\[a\\, b\\]', '[a, b]'],
    ['\\{a\\: b\\}', '{a: b}'],
    ['$\\{foo.bar\\}', '${foo.bar}'],
    ['xyz_${a.b.c}', 'xyz_${a.b.c}'],
    ['${f:USER,root}', '${f:USER,root}'],
    ['${f.g:USER,root}', '${f.g:USER,root}'],
    ['c:\\foo\\a-b.txt', 'c:\\foo\\a-b.txt'],
    ['null', null],
    ['1', 1],
    ['+1', 1],
    ['1___0___', '1___0___'],
    ['0.51', 0.51],
    ['10e0', 10],
    ['+inf', Infinity],
    ['true', true],
    ['.', '.'],
    [UNQUOTED_SPECIAL, UNQUOTED_SPECIAL],
    ['a.b.c', 'a.b.c'],
    ['list.0.bar', 'list.0.bar'],
    ['0.foo', '0.foo'],
    ['10', 10],
    ['10abc', '10abc'],
    ['True', true],
    ['TRUE', true],
    ['trUe', true],
    ['faLse', false],
    ['0', 0],
    ['-1', -1],
    ['10_0', 100],
    ['0.0', 0],
    ['1e-05', 1e-5],
    ['-3.14', -3.14],
    ['3.1_4', 3.14],
    ['-10e1', -100],
    ['inf', Infinity],
    ['INF', Infinity],
    ['-inf', -Infinity],
    ['${a}', '${a}'],
    ['${foo:1,2,3}', '${foo:1,2,3}'],
    ['${foo:[1,2,3]}', '${foo:[1,2,3]}'],
    ['http://127.0.0.1:3000/sse', 'http://127.0.0.1:3000/sse'],
  ])('%j', (text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  it('nan', () => {
    expect(value('nan')).toBeNaN();
    expect(value('NaN')).toBeNaN();
  });
});

describe('Hydra test_list_container / test_dict_container', () => {
  it.each<[string, OverrideValue]>([
    ['[]', []],
    ['[1, 2, 3]', [1, 2, 3]],
    ['[a,b,[1,2]]', ['a', 'b', [1, 2]]],
    ['[a b, c d]', ['a b', 'c d']],
    ['{}', {}],
    ['{a:10}', { a: 10 }],
    ['{a:10,b:xyz}', { a: 10, b: 'xyz' }],
    ['{a:10,b:xyz,c:{d:foo,f:[1,2,{g:0}]}}', { a: 10, b: 'xyz', c: { d: 'foo', f: [1, 2, { g: 0 }] } }],
    ['{a: null, b: [], c: {}}', { a: null, b: [], c: {} }],
    [`{${UNQUOTED_SPECIAL}: 1}`, { [UNQUOTED_SPECIAL]: 1 }],
    ['{\\\\\\(\\)\\[\\]\\{\\}\\:\\=\\ \\\t\\,: 1}', { '\\()[]{}:= \t,': 1 }],
    ['{white spaces: 1}', { 'white spaces': 1 }],
    ['{a_b: 1, ab 123.5 True: 2, null false: 3, 1: 4}', { a_b: 1, 'ab 123.5 True': 2, 'null false': 3, 1: 4 }],
    ["{a: 'a\\\\', b: 'b\\\\'}", { a: 'a\\', b: 'b\\' }],
    ['{a: "a\\\\", b: "b\\\\"}', { a: 'a\\', b: 'b\\' }],
  ])('%s', (text, expected) => {
    expect(value(text)).toEqual(expected);
  });
});

describe('Hydra test_primitive_quoted_string', () => {
  it.each<[string, string]>([
    ["'foo'", 'foo'],
    ["'foo bar'", 'foo bar'],
    ['"foo bar"', 'foo bar'],
    ["'123'", '123'],
    ["'null'", 'null'],
    ["'a,b'", 'a,b'],
    ["'true'", 'true'],
    ["'a \\\\${b}'", 'a \\\\${b}'],
    ["'a \\'${b}\\''", "a '${b}'"],
    ["'a \\'\\\\${b}\\''", "a '\\\\${b}'"],
    ["'a \\\\\\'${b}\\\\\\''", "a \\'${b}\\'"],
    ["'${foo:\\'b,a,r\\'}'", "${foo:'b,a,r'}"],
    ["'${foo:\"\\' }\"}'", `\${foo:"' }"}`],
    ['"abc\\"def"', 'abc"def'],
    ['"abc\\\\\\"def"', 'abc\\"def'],
    ['"abc\\\\"', 'abc\\'],
    ['"abc\\\\\\\\"', 'abc\\\\'],
  ])('%s', (text, expected) => {
    expect(value(text)).toBe(expected);
  });
});

describe('Hydra keys and override types', () => {
  it.each([
    ['abc=1', { type: 'change', key: 'abc', package: undefined, value: 1 }],
    ['abc@pkg=1', { type: 'change', key: 'abc', package: 'pkg', value: 1 }],
    ['abc@pkg1.pkg2=1', { type: 'change', key: 'abc', package: 'pkg1.pkg2', value: 1 }],
    ['a/b/c=1', { type: 'change', key: 'a/b/c', value: 1 }],
    ['a.b.c=1', { type: 'change', key: 'a.b.c', value: 1 }],
    ['list.0.bar=1', { type: 'change', key: 'list.0.bar', value: 1 }],
    ['$foo=1', { type: 'change', key: '$foo', value: 1 }],
    ['+key=value', { type: 'add', key: 'key', value: 'value' }],
    ['++key=value', { type: 'force_add', key: 'key', value: 'value' }],
    ['~key', { type: 'del', key: 'key', value: undefined, valueType: undefined }],
    ['~key=', { type: 'del', key: 'key', value: '', valueType: 'element' }],
    ['~key=value', { type: 'del', key: 'key', value: 'value' }],
    ['key=', { type: 'change', key: 'key', value: '', valueType: 'element' }],
    ['key= value', { type: 'change', key: 'key', value: 'value' }],
    ['key=1,2,3', { type: 'change', key: 'key', value: [1, 2, 3], valueType: 'simple_choice_sweep' }],
    ['key=[1,2,3]', { type: 'change', key: 'key', value: [1, 2, 3], valueType: 'element' }],
    ["key='1,2,3'", { type: 'change', key: 'key', value: '1,2,3', valueType: 'element' }],
    ['key=choice(a,b)', { type: 'change', key: 'key', valueType: 'sweep' }],
    ['key=range(1,3)', { type: 'change', key: 'key', valueType: 'sweep' }],
  ])('%s', (line, expected) => {
    expect(parseOverride(line)).toMatchObject({ ...expected, inputLine: line });
  });

  it.each([
    ['key= \tvalue \t', 'value', 'element'],
    ['key=value \t 123', 'value \t 123', 'element'],
    ["key='  foo,bar\t'", '  foo,bar\t', 'element'],
    ["key='foo , \t\t bar'", 'foo , \t\t bar', 'element'],
    ['key=1 ,  2,\t\t3', [1, 2, 3], 'simple_choice_sweep'],
    ['key=choice\t(  1\t\t )', [1], 'sweep'],
    ['key=choice(\t\t1,   2, \t 3 )', [1, 2, 3], 'sweep'],
    ['key=[1  ,\t2\t],[\t3\t   ,4  ]', [[1, 2], [3, 4]], 'simple_choice_sweep'],
  ])('Hydra test_whitespaces: %j', (line, value, valueType) => {
    expect(parseOverride(line)).toMatchObject({ type: 'change', key: 'key', value, valueType });
  });

  it.each([
    ['a b=1', "token recognition error at: ' '"],
    ['key=[1,2', "mismatched input '<EOF>' expecting BRACKET_CLOSE"],
    ['key={a}', "mismatched input '}' expecting COLON"],
    ['key=int(1)', "function 'int' is not supported here"],
  ])('refuses %s, naming where', (line, message) => {
    expect(() => parseOverride(line)).toThrow(message);
    expect(() => parseOverride(line)).toThrow(`Error parsing override '${line}'`);
  });
});
