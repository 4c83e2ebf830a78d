// Servers of one kind: what their tools act on overlaps in more than one thing.
import { describe, expect, it } from 'vitest';
import { serverKinds } from './server-kinds.ts';

const server = (name: string, heads: string[]) => heads.map((head) => ({ server: name, head }));

describe('server kinds', () => {
  const kinds = serverKinds([
    ...server('todoist', ['task', 'project', 'section', 'label', 'comment']),
    ...server('asana', ['task', 'project', 'section', 'tag', 'goal']),
    ...server('gmail', ['email', 'label', 'draft', 'filter']),
    ...server('search', ['result']),
    { server: 'fetch' },
  ]);

  it('two task trackers are alike; a task tracker and a mailbox sharing only labels are not', () => {
    expect(kinds.alike('todoist', 'asana')).toBe(true);
    expect(kinds.alike('asana', 'todoist')).toBe(true);
    expect(kinds.alike('todoist', 'gmail')).toBe(false);
    expect(kinds.alike('gmail', 'asana')).toBe(false);
  });

  it('a server with too few things to judge is alike to every other, and every server to itself', () => {
    expect(kinds.alike('search', 'gmail')).toBe(true);
    expect(kinds.alike('fetch', 'todoist')).toBe(true);
    expect(kinds.alike('unknown', 'asana')).toBe(true);
    expect(kinds.alike('gmail', 'gmail')).toBe(true);
  });

  it('aspects of anything weigh nothing and things that live on something else half: a board and a CRM sharing lists, members and details are not alike', () => {
    const more = serverKinds([
      ...server('trello', ['board', 'list', 'card', 'member', 'detail', 'info', 'health', 'comment', 'field', 'attach']),
      ...server('attio', ['record', 'company', 'list', 'member', 'detail', 'info', 'health', 'note']),
      ...server('airtable', ['base', 'table', 'record', 'comment', 'field', 'attach']),
      ...server('shortcut', ['story', 'epic', 'link', 'object', 'workflow']),
      ...server('hubspot', ['contact', 'deal', 'link', 'object', 'workflow']),
      ...server('todoist', ['task', 'section', 'project', 'label', 'comment']),
      ...server('plane', ['issue', 'cycle', 'project', 'label', 'comment']),
    ]);
    expect(more.alike('trello', 'attio')).toBe(false); // list 1 + member 0.5
    expect(more.alike('trello', 'airtable')).toBe(false); // comment, field, attachment: 1.5
    expect(more.alike('shortcut', 'hubspot')).toBe(false); // workflow 1
    expect(more.alike('todoist', 'plane')).toBe(true); // project 1 + label and comment 0.5 each
  });
});
