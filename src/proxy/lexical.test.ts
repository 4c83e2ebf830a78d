import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG_DIR } from './eval-command.ts';
import { loadEvalCatalog } from './eval.ts';
import { parameterNames } from './hashing.ts';
import { LexicalIndex, tokenize } from './lexical.ts';
import { cosine, packVector, unpackVector, VectorIndex } from './vectors.ts';

describe('tokenize', () => {
  it('splits camelCase and snake_case, drops stopwords, folds suffixes', () => {
    expect(tokenize('readFile: Reads the files')).toEqual(['read', 'file', 'read', 'file']);
    expect(tokenize('list_open_pull_requests')).toEqual(['list', 'open', 'pull', 'request']);
  });
});

describe('LexicalIndex: meaning and side effects', () => {
  const jira = new LexicalIndex([
    { id: 'jira/jira_get', name: 'jira_get', description: 'Read any Jira data.', params: ['path'], annotations: { readOnlyHint: true } },
    { id: 'jira/jira_post', name: 'jira_post', description: 'Create Jira resources.', params: ['path', 'body'] },
    { id: 'jira/jira_delete', name: 'jira_delete', description: 'Delete Jira resources.', params: ['path'], annotations: { destructiveHint: true } },
  ]);

  it('never puts a destructive tool first for a query that does not ask for its action', () => {
    expect(jira.search('open a Jira ticket for the login bug', 3)[0].id).toBe('jira/jira_post');
    expect(jira.search('what is in Jira about the login bug', 3)[0].id).not.toBe('jira/jira_delete');
    expect(jira.search('delete the Jira issue PROJ-9', 3)[0].id).toBe('jira/jira_delete');
  });

  it('matches the object of a delete: a file name asks for the file tool, not the repository one', () => {
    const gh = new LexicalIndex([
      { id: 'github/delete_file', name: 'delete_file', description: 'Delete a file from a GitHub repository', params: ['owner', 'repo', 'path'] },
      { id: 'github/delete_repository', name: 'delete_repository', description: 'Delete a GitHub repository', params: ['owner', 'repo'] },
    ]);
    expect(gh.search('delete README.old from the repository on GitHub', 2)[0].id).toBe('github/delete_file');
  });

  it('finds a directory tool for "folder", over a tool that only mentions folders', () => {
    const fs = new LexicalIndex([
      { id: 'fs/list_directory', name: 'list_directory', description: 'List entries at a path.', params: ['path'] },
      { id: 'fs/get_file_info', name: 'get_file_info', description: 'Size and times of a file or folder.', params: ['path'] },
    ]);
    expect(fs.search('what is in this folder', 2)[0].id).toBe('fs/list_directory');
  });

  it('reads a phrasal verb as its phrase: the "go" of "go to" counts less on its own', () => {
    const browser = new LexicalIndex([
      { id: 'pw/go_back', name: 'go_back', description: 'Go back to the previous page.', params: [] },
      { id: 'pw/navigate', name: 'navigate', description: 'Open a URL in the browser.', params: ['url'] },
    ]);
    const goBack = (q: string): number => browser.search(q, 2).find((h) => h.id === 'pw/go_back')?.score ?? 0;
    expect(browser.search('go to the login page', 2)[0].id).toBe('pw/navigate');
    // "to" is a stopword: without the phrase both queries would score go_back alike.
    expect(goBack('go to the login page')).toBeLessThan(goBack('go the login page') * 0.8);
  });

  it('weighs a value (file name, quoted string, number) below the words that say which tool', () => {
    const fs = new LexicalIndex([
      { id: 'fs/read_file', name: 'read_file', description: 'Read the contents of a file.', params: ['path'] },
      { id: 'app/get_config', name: 'get_config', description: 'Get the server config, as YAML.', params: [] },
    ]);
    expect(fs.search('show me what is inside config.yaml', 2)[0].id).toBe('fs/read_file');
    expect(fs.search('show me the config', 2)[0].id).toBe('app/get_config');
  });

  it('reads what a destructive tool without an object in its name acts on from its description', () => {
    const index = new LexicalIndex([
      { id: 'git/git_clean', name: 'git_clean', description: 'Remove untracked files from the working directory', params: ['force'], annotations: { destructiveHint: true } },
      { id: 'docs/query_docs', name: 'query_docs', description: 'Query the documentation of a library', params: ['library'] },
    ]);
    const hits = index.search('clean up the docs in the README', 2);
    expect(hits[0].id).toBe('docs/query_docs');
    expect(hits[1].score).toBeGreaterThan(hits[0].score);
    expect(index.search('clean up the untracked files', 2)[0].id).toBe('git/git_clean');
  });

  it('never leads with a destructive tool whose action is asked on another object, even when it scores best', () => {
    const notion = new LexicalIndex([
      { id: 'notion/API-post-page', name: 'API-post-page', description: 'Notion | Create a page', params: ['parent', 'properties'], annotations: { destructiveHint: true } },
      { id: 'notion/API-get-page', name: 'API-get-page', description: 'Notion | Retrieve a page', params: ['page_id'], annotations: { readOnlyHint: true } },
    ]);
    const hits = notion.search('add a paragraph to the end of the Notion page', 2);
    expect(hits.map((h) => h.id)).toEqual(['notion/API-get-page', 'notion/API-post-page']);
    // Asked on its own object, it leads.
    expect(notion.search('add a page to Notion', 2)[0].id).toBe('notion/API-post-page');
  });

  it('finds tools worded differently through WordNet, below exact words', () => {
    const fs = new LexicalIndex([
      { id: 'fs/create_directory', name: 'create_directory', description: 'Create a new directory.', params: ['path'] },
      { id: 'fs/erase_file', name: 'erase_file', description: 'Erase a file.', params: ['path'] },
      { id: 'fs/delete_cache', name: 'delete_cache', description: 'Delete the cache.', params: [] },
    ]);
    expect(fs.search('make a folder for the build', 1)[0].id).toBe('fs/create_directory');
    const hits = fs.search('delete the cache file', 3);
    expect(hits.map((h) => h.id)).toEqual(['fs/delete_cache', 'fs/erase_file']);
  });
});

describe('LexicalIndex top k', () => {
  it('returns the same first k hits as a full ranking (docs that cannot reach the top k are skipped, exactly)', () => {
    const catalog = loadEvalCatalog(DEFAULT_CATALOG_DIR);
    const index = new LexicalIndex(catalog.tools.map((t) => ({ id: `${t.server}/${t.name}`, name: t.name, description: t.description ?? '', params: parameterNames(t.inputSchema), annotations: t.annotations })));
    for (const { query } of catalog.queries) {
      const all = index.search(query, 1000);
      expect(index.search(query, 3)).toEqual(all.slice(0, 3));
    }
  });
});

describe('LexicalIndex (BM25)', () => {
  const index = new LexicalIndex([
    { id: 'fs/read_file', name: 'read_file', description: 'Read the complete contents of a file from disk.', params: ['path'] },
    { id: 'fs/write_file', name: 'write_file', description: 'Create a new file or overwrite an existing file with content.', params: ['path', 'content'] },
    { id: 'git/git_commit', name: 'git_commit', description: 'Record staged changes to the repository with a message.', params: ['repo_path', 'message'] },
    { id: 'slack/post_message', name: 'post_message', description: 'Post a message to a Slack channel.', params: ['channel_id', 'text'] },
  ]);

  it('ranks by names, descriptions and parameter names', () => {
    expect(index.search('read a file', 2)[0].id).toBe('fs/read_file');
    expect(index.search('commit my changes', 1)[0].id).toBe('git/git_commit');
    expect(index.search('send text to a channel', 1)[0].id).toBe('slack/post_message');
    const hits = index.search('file content', 4);
    expect(hits[0].id).toBe('fs/write_file');
    expect(hits.every((h) => h.similarity > 0 && h.similarity <= 1)).toBe(true);
  });

  it('filters and returns nothing for unknown words', () => {
    expect(index.search('kubernetes', 5)).toEqual([]);
    expect(index.search('file', 5, (id) => id.startsWith('slack/'))).toEqual([]);
    // "file" as a verb is WordNet's "record": the commit is found, below exact words, and the filter holds.
    expect(index.search('file', 5, (id) => id.startsWith('git/')).map((h) => h.id)).toEqual(['git/git_commit']);
    expect(index.search('file', 5)[0].id).not.toBe('git/git_commit');
  });
});

describe('VectorIndex', () => {
  it('packs float32 BLOBs losslessly for float32 values', () => {
    const v = [0.5, -0.25, 1, 0];
    const blob = packVector(v);
    expect(blob.byteLength).toBe(16);
    expect([...unpackVector(blob)]).toEqual(v);
  });

  it('finds nearest rows by cosine, with min similarity, filter, update and delete', () => {
    const index = new VectorIndex(3, 1);
    index.set('a', [1, 0, 0]);
    index.set('b', [0, 1, 0]);
    index.set('c', [1, 1, 0]);
    const hits = index.search([2, 0.1, 0], 3);
    expect(hits.map((h) => h.id)).toEqual(['a', 'c', 'b']);
    expect(hits[0].similarity).toBeCloseTo(cosine([2, 0.1, 0], [1, 0, 0]), 5);
    expect(index.search([1, 0, 0], 3, 0.5).map((h) => h.id)).toEqual(['a', 'c']);
    expect(index.search([1, 0, 0], 3, -1, (id) => id !== 'a')[0].id).toBe('c');
    index.delete('a');
    index.set('b', [1, 0, 0]);
    expect(index.search([1, 0, 0], 1)[0].id).toBe('b');
    expect(index.size).toBe(2);
    expect(() => index.set('d', [1, 0])).toThrow('expected 3');
  });

  it('scans with the SIMD kernel when the dimension is a multiple of 4, across growth, matching plain cosine', () => {
    const index = new VectorIndex(8, 2);
    const rows = Array.from({ length: 50 }, (_, r) => Array.from({ length: 8 }, (_, i) => Math.sin(r * 8 + i)));
    rows.forEach((v, r) => index.set(`r${r}`, v));
    const q = [1, -0.5, 0.25, 0, 2, 1, -1, 0.5];
    const expected = rows.map((v, r) => ({ id: `r${r}`, s: cosine(q, v) })).sort((a, b) => b.s - a.s).slice(0, 5);
    const hits = index.search(q, 5);
    expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
    hits.forEach((h, i) => expect(h.similarity).toBeCloseTo(expected[i].s, 5));
    expect([...index.vector('r3')!].reduce((a, x) => a + x * x, 0)).toBeCloseTo(1, 5);
  });
});

describe('LexicalIndex: a server named in the query', () => {
  it('never leads with a destructive tool of another server than the one the query names', () => {
    const index = new LexicalIndex([
      { id: 'airtable/update_records', name: 'update_records', description: 'Update customer records in a table', params: ['records'], annotations: { destructiveHint: true } },
      { id: 'linear/updateCustomer', name: 'updateCustomer', description: 'Update a customer', params: ['id', 'domains'] },
    ]);
    expect(index.search('update the customer records in Linear', 2)[0].id).toBe('linear/updateCustomer');
    expect(index.search('update the customer records in Airtable', 2)[0].id).toBe('airtable/update_records');
  });

  it('ranks a tool of the server the query names above another server\'s that fits its words better', () => {
    const index = new LexicalIndex([
      { id: 'todo/create_task', name: 'create_task', description: 'Create a new task', params: ['content'] },
      { id: 'linear/create_issue', name: 'create_issue', description: 'Create an issue (a task to do)', params: ['title'] },
      { id: 'linear/get_issue', name: 'get_issue', description: 'Get an issue', params: ['id'] },
      { id: 'todo/get_task', name: 'get_task', description: 'Get a task', params: ['id'] },
    ]);
    expect(index.search('create a task in Linear', 2)[0].id).toBe('linear/create_issue');
    // Lowercase, "linear" is a word, not a name: the words decide.
    expect(index.search('create a task in linear', 2)[0].id).toBe('todo/create_task');
  });

  it('reads the name of a tool described in Japanese or Chinese as its description, like an English one repeating it', () => {
    const other = { id: 'cw/get_room', name: 'get_room', description: 'Gets a chat room and its members: its name, its icon, and how many members it has.', params: ['room_id'] };
    const score = (description: string): number | undefined => new LexicalIndex([{ id: 'cw/list_room_members', name: 'list_room_members', description, params: ['room_id'] }, other])
      .search('show the members of chat room 12', 2).find((h) => h.id === 'cw/list_room_members')?.score;
    const japanese = score('チャットのメンバー一覧を取得します。');
    expect(japanese).toBeCloseTo(score('List the members of a room.') ?? 0, 6);
    expect(japanese).toBeGreaterThan(score('') ?? Infinity);
  });
});


describe('LexicalIndex: the query\'s action leads', () => {
  const fs = (annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean }) => new LexicalIndex([
    { id: 'fs/read_text_file', name: 'read_text_file', description: 'Read the complete contents of a file from the file system as text.', params: ['path', 'head', 'tail'], annotations: { readOnlyHint: true } },
    { id: 'fs/write_file', name: 'write_file', description: 'Create a new file or completely overwrite an existing file with new content.', params: ['path', 'content'], ...(annotations ? { annotations } : {}) },
    { id: 'fs/list_directory', name: 'list_directory', description: 'Get a detailed listing of all files and directories in a specified path.', params: ['path'] },
  ]);

  it('a write query gets the writing tool first, even one the server annotates destructive', () => {
    for (const index of [fs(), fs({ destructiveHint: true })]) {
      expect(index.search('write text to a file', 3)[0].id).toBe('fs/write_file');
      expect(index.search('save this text into notes.txt', 3)[0].id).toBe('fs/write_file');
      // A read is still a read; the first k equal a full ranking's.
      expect(index.search('read the text of a file', 3)[0].id).toBe('fs/read_text_file');
      expect(index.search('write text to a file', 1)).toEqual(index.search('write text to a file', 10).slice(0, 1));
    }
  });

  it('a tool whose words name no action but that is annotated read-only only looks', () => {
    const index = (readOnly: boolean): LexicalIndex => new LexicalIndex([
      { id: 'meet/meeting_notes_transcript', name: 'meeting_notes_transcript', description: 'The transcript and the notes of a meeting.', params: ['meeting_id'], ...(readOnly ? { annotations: { readOnlyHint: true } } : {}) },
      { id: 'notes/create_note', name: 'create_note', description: 'Create a note.', params: ['title', 'body'] },
    ]);
    expect(index(true).search('add a note about the meeting', 2)[0].id).toBe('notes/create_note');
    // Unannotated, nothing says it only looks: it keeps the lead its words give it.
    expect(index(false).search('add a note about the meeting', 2)[0].id).toBe('meet/meeting_notes_transcript');
  });
});

describe('LexicalIndex: the query\'s object leads', () => {
  const index = new LexicalIndex([
    { id: 'db/list_databases', name: 'list_databases', description: 'List all databases in the account. Use this to discover databases in the Cosmos DB account.', params: [] },
    { id: 'db/list_containers', name: 'list_containers', description: 'List all containers.', params: ['database'] },
    { id: 'db/get_container', name: 'get_container', description: 'Get a container of a database.', params: ['database', 'container'] },
  ]);

  it('a tool acting on where the object is does not stay above one acting on the object', () => {
    expect(index.search('list the containers in the Cosmos DB database', 3)[0].id).toBe('db/list_containers');
    // The first k equal a full ranking's.
    expect(index.search('list the containers in the Cosmos DB database', 1)).toEqual(index.search('list the containers in the Cosmos DB database', 10).slice(0, 1));
    // Asked for the databases, the databases lead.
    expect(index.search('list the databases in the Cosmos DB account', 3)[0].id).toBe('db/list_databases');
  });
});
