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
});
