// How a recording turns what changed between calls into lists and `after` rules: the cases the
// end-to-end golden tests do not reach (changes before the first call, no re-fetch, pages, a tool
// hidden and shown again with a new definition, re-lists nobody announced).
import { describe, expect, it } from 'vitest';
import { RecordedChanges } from './recorded-changes.ts';

const tool = (name: string, description = name) => ({ name, description, inputSchema: { type: 'object' } });
const tools = (...list: Array<ReturnType<typeof tool>>) => ({ tools: list });
const CHANGED = 'notifications/tools/list_changed';

describe('RecordedChanges', () => {
  it('folds changes before the first answered call into the starting list', () => {
    const r = new RecordedChanges();
    r.result('tools/list', {}, tools(tool('a')));
    r.notification(CHANGED, undefined, 0);
    r.result('tools/list', {}, tools(tool('a'), tool('b')));
    const plan = r.plan();
    expect(plan.lists.tools).toEqual([{ definition: tool('a'), hidden: false }, { definition: tool('b'), hidden: false }]);
    expect(plan.after).toEqual([]);
  });

  it('announces without changing when the client never fetched the list again, and ignores re-lists nobody announced', () => {
    const r = new RecordedChanges();
    r.result('tools/list', {}, tools(tool('a')));
    r.result('tools/list', {}, tools(tool('a'), tool('stray')));
    r.notification(CHANGED, undefined, 2);
    expect(r.plan()).toMatchObject({ lists: { tools: [{ definition: tool('a'), hidden: false }] }, after: [{ calls: 2, tools: {} }] });
  });

  it('reads every page of a list fetched after the change', () => {
    const r = new RecordedChanges();
    r.result('tools/list', {}, tools(tool('a'), tool('b')));
    r.notification(CHANGED, undefined, 1);
    r.result('tools/list', {}, { ...tools(tool('a')), nextCursor: 'p2' });
    r.result('tools/list', { cursor: 'p2' }, tools(tool('c')));
    const plan = r.plan();
    expect(plan.after).toEqual([{ calls: 1, tools: { show: ['c'], hide: ['b'] } }]);
    expect(plan.lists.tools?.map((t) => [t.definition.name, t.hidden])).toEqual([['a', false], ['b', false], ['c', true]]);
  });

  it('writes a tool hidden and shown again with a new definition as hide, then show with change', () => {
    const r = new RecordedChanges();
    r.result('tools/list', {}, tools(tool('a', 'v1')));
    r.notification(CHANGED, undefined, 1);
    r.result('tools/list', {}, tools());
    r.notification(CHANGED, undefined, 2);
    r.result('tools/list', {}, tools(tool('a', 'v2')));
    expect(r.plan().after).toEqual([
      { calls: 1, tools: { hide: ['a'] } },
      { calls: 2, tools: { show: ['a'], change: [tool('a', 'v2')] } },
    ]);
  });

  it('keeps the first contents read, an update before the first call as the start, and later ones as rules in call order', () => {
    const r = new RecordedChanges();
    const read = (text: string) => ({ contents: [{ uri: 'memo://a', mimeType: 'text/plain', text }] });
    r.result('resources/read', { uri: 'memo://a' }, read('one'));
    r.notification('notifications/resources/updated', { uri: 'memo://a' }, 0);
    r.result('resources/read', { uri: 'memo://a' }, read('two'));
    r.notification('notifications/resources/updated', { uri: 'memo://a' }, 4);
    r.notification('notifications/resources/updated', { uri: 'memo://a' }, 3);
    r.result('resources/read', { uri: 'memo://a' }, read('three'));
    r.result('resources/read', { uri: 'memo://a' }, read('unannounced'));
    const plan = r.plan();
    expect(plan.reads.get('memo://a')).toEqual({ uri: 'memo://a', mimeType: 'text/plain', text: 'two' });
    expect(plan.after).toEqual([
      { calls: 3, updated: [{ uri: 'memo://a', mimeType: 'text/plain', text: 'three' }] },
      { calls: 4, updated: [{ uri: 'memo://a' }] },
    ]);
    expect(plan.lists).toEqual({});
  });
});
