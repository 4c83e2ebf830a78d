// Central objects: two products of one kind calling the thing they are about by their own words.
import { describe, expect, it } from 'vitest';
import { centralObjects, type CentralTool } from './central-objects.ts';

const tool = (server: string, name: string, head: string, actions: string[], params: string[] = []): CentralTool =>
  ({ server, name, description: name.replace(/_/g, ' '), head, actions, params });
/** A task tracker: its central object (`central`) made, read, changed and removed in a project, and projects, labels, comments. */
const trackerOf = (server: string, central: string, extra: CentralTool[] = []): CentralTool[] => [
  tool(server, `create_${central}`, central, ['create'], ['project', 'titl']),
  tool(server, `get_${central}`, central, ['read'], ['project', 'id']),
  tool(server, `update_${central}`, central, ['update'], ['project', 'id']),
  tool(server, `delete_${central}`, central, ['delete'], ['id']),
  tool(server, 'list_projects', 'project', ['list']),
  tool(server, 'create_label', 'label', ['create'], ['name']),
  tool(server, 'add_comment', 'comment', ['create'], ['id', 'bodi']),
  ...extra,
];

describe('central objects', () => {
  const tracker = trackerOf;
  it('two trackers of one kind, each never saying the other\'s word: a task is an issue', () => {
    const central = centralObjects([...tracker('todoist', 'task'), ...tracker('plane', 'issu')]);
    expect(central.counterparts('todoist', 'plane')).toEqual(['task', 'issu']);
    expect(central.counterparts('plane', 'todoist')).toEqual(['issu', 'task']);
    expect(central.counterparts('todoist', 'todoist')).toBeUndefined();
  });

  it('a product that says both words means two things', () => {
    const subtask = { ...tool('linear', 'convert_to_task', 'subissu', ['update']), description: 'Convert an issue to a task' };
    expect(centralObjects([...tracker('todoist', 'task'), ...tracker('linear', 'issu', [subtask])]).counterparts('todoist', 'linear')).toBeUndefined();
  });

  it('servers sharing fewer than three things, a central object without a lead, another treatment or no common parent pair nothing', () => {
    // A mailbox shares labels and comments only.
    const mailbox = [tool('gmail', 'send_email', 'email', ['send']), tool('gmail', 'read_email', 'email', ['read']), tool('gmail', 'delete_email', 'email', ['delete']),
      tool('gmail', 'create_label', 'label', ['create']), tool('gmail', 'add_comment', 'comment', ['create'])];
    expect(centralObjects([...tracker('todoist', 'task'), ...mailbox]).counterparts('todoist', 'gmail')).toBeUndefined();
    // As many label tools as issue tools: no central object.
    const labels = ['get', 'update', 'delete'].map((v) => tool('plane', `${v}_label`, 'label', [v === 'get' ? 'read' : v]));
    expect(centralObjects([...tracker('todoist', 'task'), ...tracker('plane', 'issu', labels)]).counterparts('todoist', 'plane')).toBeUndefined();
    // Only read: not treated as a task is.
    const readOnly = [0, 1, 2].map((i) => tool('plane', `get_issue_${i}`, 'issu', ['read'], ['project']));
    const reader = [...readOnly, ...tracker('plane', 'issu').filter((t) => t.head !== 'issu')];
    expect(centralObjects([...tracker('todoist', 'task'), ...reader]).counterparts('todoist', 'plane')).toBeUndefined();
    // Issues belonging to no project, where tasks do.
    const loose = tracker('plane', 'issu').map((t) => (t.head === 'issu' ? { ...t, params: ['id'] } : t));
    expect(centralObjects([...tracker('todoist', 'task'), ...loose]).counterparts('todoist', 'plane')).toBeUndefined();
  });
});

describe('kin things', () => {
  // Labels on one tracker, tags on the other: made, read, changed and removed alike.
  const labels = (server: string, word: string): CentralTool[] => ['create', 'read', 'update', 'delete'].map((v) => tool(server, `${v}_${word}`, word, [v]));
  // A tracker without labels of its own, with sections: it shares tasks, projects, comments and sections.
  const tracker = (server: string, central: string, extra: CentralTool[]): CentralTool[] =>
    [...trackerOf(server, central).filter((t) => t.head !== 'label'), tool(server, 'add_section', 'section', ['create']), ...extra];

  it('things the lexicon calls by one name, one word on each server, treated alike: a label is a tag', () => {
    const central = centralObjects([...tracker('todoist', 'task', labels('todoist', 'label')), ...tracker('asana', 'task', labels('asana', 'tag'))]);
    expect(central.kin('todoist', 'asana')).toEqual([['label', 'tag']]);
    expect(central.kin('asana', 'todoist')).toEqual([['tag', 'label']]);
  });

  it('not where a server says both words, the servers share fewer than three things, or the two are treated otherwise', () => {
    const saysTag = { ...tool('todoist', 'set_color', 'color', ['update']), description: 'Set the color of a tag' };
    expect(centralObjects([...tracker('todoist', 'task', [...labels('todoist', 'label'), saysTag]), ...tracker('asana', 'task', labels('asana', 'tag'))]).kin('todoist', 'asana')).toEqual([]);
    const tagsOnly = [tool('gmail', 'send_email', 'email', ['send']), ...labels('gmail', 'tag')];
    expect(centralObjects([...tracker('todoist', 'task', labels('todoist', 'label')), ...tagsOnly]).kin('todoist', 'gmail')).toEqual([]);
    const readTags = [tool('asana', 'get_tag', 'tag', ['read']), tool('asana', 'list_tags', 'tag', ['list'])];
    expect(centralObjects([...tracker('todoist', 'task', labels('todoist', 'label')), ...tracker('asana', 'task', readTags)]).kin('todoist', 'asana')).toEqual([]);
  });
});
