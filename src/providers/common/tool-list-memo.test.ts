import { describe, expect, test } from 'vitest';
import { ToolListMemo } from './tool-list-memo.ts';

const weather = { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const tools = [weather];
const body = (content: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content }], ...extra, tools });

/** The memo's parse of `text` after it has learnt `tools`, beside JSON.parse's. */
function both(text: string): { memo: ToolListMemo; got: unknown; want: unknown } {
  const memo = new ToolListMemo();
  memo.parse(body('learn'));
  let want: unknown;
  let wantError: unknown;
  try {
    want = JSON.parse(text);
  } catch (err) {
    wantError = err;
  }
  if (wantError !== undefined) {
    expect(() => memo.parse(text)).toThrow((wantError as Error).message);
    return { memo, got: undefined, want: undefined };
  }
  return { memo, got: memo.parse(text), want };
}

describe('ToolListMemo', () => {
  test('a tool list seen before is one shared, frozen value; the rest of the body is parsed afresh', () => {
    const memo = new ToolListMemo();
    const first = memo.parse(body('one')) as { tools: unknown; messages: { content: string }[] };
    const second = memo.parse(body('two')) as { tools: unknown; messages: { content: string }[] };
    expect(second).toEqual(JSON.parse(body('two')));
    expect(second.messages[0].content).toBe('two');
    expect(second.tools).toBe(first.tools);
    expect(Object.isFrozen(second.tools)).toBe(true);
    expect(Object.isFrozen((second.tools as (typeof weather)[])[0].function.parameters)).toBe(true);
    expect(memo.hits).toBe(1);
  });

  test('what a parser derives from a remembered list is made once and shared; from any other list, each time', () => {
    const memo = new ToolListMemo();
    const a = memo.parse(body('one')) as { tools: unknown };
    const b = memo.parse(body('two')) as { tools: unknown };
    let made = 0;
    const derive = () => ({ made: ++made });
    expect(memo.derived(a.tools, derive)).toBe(memo.derived(b.tools, derive));
    expect(made).toBe(1);
    memo.derived(Object.freeze([1]), derive);
    memo.derived([1], derive);
    expect(made).toBe(3);
  });

  test.each([
    ['another key order', JSON.stringify({ tools, model: 'm', messages: [] })],
    ['the tools written with spaces', `{"model":"m","tools": ${JSON.stringify(tools, null, 1)}}`],
    ['the text nested under another key', JSON.stringify({ model: 'm', other: { tools }, tools: [] })],
    ['the text as the value of a key ending in "tools"', `{"x\\"tools":${JSON.stringify(tools)},"tools":null}`],
    ['duplicate keys, the remembered text first', `{"tools":${JSON.stringify(tools)},"tools":[{"type":"function","function":{"name":"other"}}]}`],
    ['duplicate keys, the remembered text last', `{"tools":[],"tools":${JSON.stringify(tools)}}`],
    ['a body holding the stand-in escape', `{"note":"\\u0001ghostwire:tools","tools":${JSON.stringify(tools)}}`],
    ['a body that is not JSON after the tools', `{"model":"m","tools":${JSON.stringify(tools)},}`],
    ['a body that is not JSON before the tools', `{"model":"m",,"tools":${JSON.stringify(tools)}}`],
    ['an array body', `[{"tools":${JSON.stringify(tools)}}]`],
    ['the text inside a string', JSON.stringify({ model: 'm', note: `"tools":${JSON.stringify(tools)}` })],
  ])('parses exactly as JSON.parse: %s', (_, text) => {
    const { got, want } = both(text);
    expect(got).toEqual(want);
  });

  test('random bodies built around the remembered text parse as JSON.parse parses them', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const T = JSON.stringify(tools);
    const atoms = ['"tools":', T, '"x"', ',', ':', '{', '}', '[', ']', 'null', '"\\u0001ghostwire:tools"', ' ', '1', '"tools"', '\\"'];
    for (let i = 0; i < 2000; i++) {
      const n = 1 + Math.floor(rand() * 12);
      let text = rand() < 0.5 ? '{"tools":' + T : '{';
      for (let j = 0; j < n; j++) text += atoms[Math.floor(rand() * atoms.length)];
      text += rand() < 0.5 ? '}' : '';
      const { got, want } = both(text);
      expect(got, text).toEqual(want);
    }
  });

  test('memory is bounded: at most maxEntries lists and maxChars characters of their text', () => {
    const memo = new ToolListMemo({ maxEntries: 3, maxChars: 100_000 });
    const listOf = (i: number) => [{ ...weather, function: { ...weather.function, name: `tool_${i}` } }];
    for (let i = 0; i < 10; i++) memo.parse(JSON.stringify({ model: 'm', tools: listOf(i) }));
    expect(memo.chars).toBe(3 * JSON.stringify(listOf(9)).length);
    const small = new ToolListMemo({ maxChars: 1_000 });
    const big = [{ ...weather, function: { ...weather.function, description: 'x'.repeat(2_000) } }];
    small.parse(JSON.stringify({ tools: big }));
    small.parse(JSON.stringify({ tools: big }));
    expect(small.chars).toBe(0);
    expect(small.hits).toBe(0);
  });

  test('a client whose tool lists are never sent twice stops paying for learning them', () => {
    const memo = new ToolListMemo({ maxEntries: 1 });
    const listOf = (i: number) => [{ ...weather, function: { ...weather.function, name: `tool_${i}` } }];
    for (let i = 0; i < 40; i++) memo.parse(JSON.stringify({ model: 'm', tools: listOf(i) }));
    // Past the limit, a new list is learnt only now and then (once every 64 bodies): sent twice, no hit.
    memo.parse(JSON.stringify({ model: 'm', tools: listOf(1000) }));
    memo.parse(JSON.stringify({ model: 'm', tools: listOf(1000) }));
    expect(memo.hits).toBe(0);
    // ...and in time it is learnt again, and hits reset the count.
    for (let i = 0; i < 64; i++) memo.parse(JSON.stringify({ model: 'm', tools: listOf(2000) }));
    expect(memo.hits).toBeGreaterThan(0);
  });
});

test('a body far longer than any remembered list is parsed whole, with no search for its tools', () => {
  const memo = new ToolListMemo();
  memo.parse(body('learn'));
  const long = body('x'.repeat(20 * JSON.stringify(tools).length));
  const parsed = memo.parse(long) as { tools: unknown };
  expect(parsed).toEqual(JSON.parse(long));
  expect(memo.hits).toBe(0);
  memo.parse(body('short again'));
  expect(memo.hits).toBe(1);
});

test('a list already remembered is not remembered twice', () => {
  const memo = new ToolListMemo();
  memo.parse(body('learn'));
  const chars = memo.chars;
  for (let i = 0; i < 3; i++) memo.parse(body('x'.repeat(20 * JSON.stringify(tools).length)));
  expect(memo.chars).toBe(chars);
});
