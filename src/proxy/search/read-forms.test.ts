// Forms of a read: listing, searching, one, a batch, from a name and its description's opening.
import { describe, expect, it } from 'vitest';
import { opensByOneId, readByName, readsAll, readsBatch } from './read-forms.ts';

const read = new Set(['read']);

describe('read forms', () => {
  it('a name ending in "list" lists what precedes it; a read by a filter or a query searches; other actions keep theirs', () => {
    expect(readByName(read, ['tasks', 'list'])).toEqual({ action: 'list', object: ['tasks'] });
    expect(readByName(read, ['tasks', 'by', 'filter'])).toEqual({ action: 'search', object: ['tasks', 'by', 'filter'] });
    expect(readByName(read, ['issue', 'by', 'id'])).toBeUndefined();
    expect(readByName(read, ['list'])).toBeUndefined();
    expect(readByName(new Set(['create']), ['access', 'list'])).toBeUndefined();
  });

  it('one by ID only where the ID is of what the name lists; a batch needs the ones it reads; "all" and "a list of" list', () => {
    expect(opensByOneId('Get comments from Todoist by ID')).toBe(true);
    expect(opensByOneId('List backups for a database cluster by its id')).toBe(false);
    expect(opensByOneId('Get assets (files) by their IDs.')).toBe(false);
    expect(readsBatch(read, ['items'])).toBe(true);
    expect(readsBatch(read, ['task_ids'])).toBe(true);
    expect(readsBatch(read, ['project_id'])).toBe(false);
    expect(readsBatch(new Set(['delete']), ['ids'])).toBe(false);
    expect(readsAll(read, 'Get all projects for the current user')).toBe(true);
    expect(readsAll(read, 'Get a list of recent issues from Linear')).toBe(true);
    expect(readsAll(read, 'Get projects from Todoist by name')).toBe(false);
  });
});
