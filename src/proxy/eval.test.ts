// Search quality over the catalog of real tool descriptions: the figures must not regress.
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import { DEFAULT_CATALOG_DIR, HELDOUT_2_CATALOG_DIR, HELDOUT_3_CATALOG_DIR, HELDOUT_4_CATALOG_DIR, HELDOUT_5_CATALOG_DIR, HELDOUT_6_CATALOG_DIR, HELDOUT_CATALOG_DIR, LARGE_CATALOG_DIR, mockEmbedder } from './eval-command.ts';
import { evaluateMode, loadEvalCatalog, scoreRanking } from './eval.ts';
import { createOpenAIRankingLLM } from './llm.ts';
import { mockFetch } from './test-helpers.ts';

const catalog = loadEvalCatalog(DEFAULT_CATALOG_DIR);

describe('search evaluation (recall@k)', () => {
  it('loads 100+ real-world tools and 40+ queries whose expected tools exist', () => {
    expect(catalog.tools.length).toBeGreaterThanOrEqual(100);
    expect(catalog.queries.length).toBeGreaterThanOrEqual(40);
    expect(catalog.tools.find((t) => t.name === 'read_file')?.inputSchema).toMatchObject({ required: ['path'] });
  });

  it('lexical search finds the right tool in the top 5 for most tasks (figures of this branch, not to regress)', async () => {
    const r = await evaluateMode(catalog, 'lexical');
    expect(r.recall[5]).toBeGreaterThanOrEqual(0.92);
    expect(r.recall[1]).toBeGreaterThanOrEqual(0.75);
    expect(r.recall[1]).toBeLessThanOrEqual(r.recall[3]);
    expect(r.destructiveFirst).toBe(0);
  });

  it('over 447 real tools: direct wording found first, no destructive tool first unless asked for (per class)', async () => {
    const large = loadEvalCatalog(LARGE_CATALOG_DIR);
    expect(large.tools.length).toBeGreaterThanOrEqual(400);
    expect(large.queries.length).toBeGreaterThanOrEqual(150);
    const r = await evaluateMode(large, 'lexical');
    expect(r.byClass.direct?.recall[1]).toBeGreaterThanOrEqual(0.9);
    expect(r.byClass.direct?.recall[5]).toBeGreaterThanOrEqual(0.95);
    expect(r.byClass['destructive-check']?.recall[1]).toBeGreaterThanOrEqual(0.7);
    expect(r.destructiveFirst).toBe(0);
    expect(r.destructiveFirstPicks.map((p) => p.got)).not.toContain('jira/jira_delete');
  });

  it('over the held-out tools: no destructive tool first in either mode, however politely the task is put', async () => {
    const heldout = loadEvalCatalog(HELDOUT_CATALOG_DIR);
    const lexical = await evaluateMode(heldout, 'lexical');
    expect(lexical.byClass.direct?.recall[1]).toBeGreaterThanOrEqual(0.9);
    expect(lexical.destructiveFirstPicks).toEqual([]);
    // "Please remove the label from these emails" is the same imperative as "remove the label ...".
    const framed = { ...heldout, queries: heldout.queries.map((q) => ({ ...q, query: `Could you ${q.query}?` })) };
    expect((await evaluateMode(framed, 'lexical')).destructiveFirstPicks).toEqual([]);
    expect((await evaluateMode(heldout, 'semantic', { embedder: mockEmbedder() })).destructiveFirstPicks).toEqual([]);
  });

  // Each set was written blind and measured blind first (heldout-3 after the rules heldout-2 gave: 1 and 2
  // destructive-first picks, against 7 and 7 before them); both are development data since.
  it.each([['second', HELDOUT_2_CATALOG_DIR], ['third', HELDOUT_3_CATALOG_DIR]])('over the %s held-out set: no destructive tool first in either mode', async (_, dir) => {
    const set = loadEvalCatalog(dir);
    const lexical = await evaluateMode(set, 'lexical');
    expect(lexical.byClass.direct?.recall[1]).toBeGreaterThanOrEqual(0.9);
    expect(lexical.destructiveFirstPicks).toEqual([]);
    expect((await evaluateMode(set, 'semantic', { embedder: mockEmbedder() })).destructiveFirstPicks).toEqual([]);
  });

  // catalog-heldout-4 was measured blind first (6 lexical and 4 semantic destructive-first picks) and gave the
  // rules of src/proxy/search/clauses.ts; catalog-heldout-5 (3 and 2) gave two more (a refusal extends over
  // coordinated verbs; a removal from a named place is not led by a tool taking things from elsewhere) and a
  // consistent stem ("flush every queued job" meets the queue purge since "queued" and "queue" share one).
  // Both are development data since. heldout-4's last lexical pick ("send all our LINE followers a set of
  // picture cards they can flick through" → the text broadcast, not the card carousel) closed with the
  // lexicon's "swipe | flick through" group (issue 28).
  it.each([['fourth', HELDOUT_4_CATALOG_DIR], ['fifth', HELDOUT_5_CATALOG_DIR]])('over the %s held-out set: no destructive tool first in either mode', async (_, dir) => {
    const set = loadEvalCatalog(dir);
    const lexical = await evaluateMode(set, 'lexical');
    expect(lexical.byClass.direct?.recall[1]).toBeGreaterThanOrEqual(0.9);
    expect(lexical.destructiveFirstPicks).toEqual([]);
    expect((await evaluateMode(set, 'semantic', { embedder: mockEmbedder() })).destructiveFirstPicks).toEqual([]);
  });

  // catalog-heldout-6 (issue 28) holds the two blind cases in natural wording; measured blind before
  // any rule of that round: no destructive-first pick in either mode (lexical direct @1 0.848; 0.891 since the
  // query's object leads).
  it('over the sixth held-out set: no destructive tool first in either mode, the two blind cases of issue 28 included', async () => {
    const set = loadEvalCatalog(HELDOUT_6_CATALOG_DIR);
    const lexical = await evaluateMode(set, 'lexical');
    expect(lexical.byClass.direct?.recall[1]).toBeGreaterThanOrEqual(0.89);
    expect(lexical.destructiveFirstPicks).toEqual([]);
    const semantic = await evaluateMode(set, 'semantic', { embedder: mockEmbedder() });
    expect(semantic.destructiveFirstPicks).toEqual([]);
    // The query asks which flags are stale, not to delete one; the delete of records is no review-note delete.
    const blind = { ...set, queries: set.queries.filter((q) => ['which feature flags are stale?', 'delete records from a database collection'].includes(q.query)) };
    expect(blind.queries).toHaveLength(2);
    for (const r of [await evaluateMode(blind, 'lexical'), await evaluateMode(blind, 'semantic', { embedder: mockEmbedder() })]) {
      expect(r.recall[3]).toBe(1);
      expect(r.destructiveFirstPicks).toEqual([]);
    }
  });

  it('our own phrasings of each class over the other sets: no destructive tool first in either mode', async () => {
    // A leading clause, a refused delete, a verb the table does not know, a move, an archive that is no delete.
    const probes: Record<string, Array<[string, string]>> = {
      [LARGE_CATALOG_DIR]: [
        ['before I drop anything, list the collections in the analytics database', 'mongodb/list-collections'],
        ['once the deploy finishes, show me the logs of the api pod', 'kubernetes/kubectl_logs'],
        ['update the card description without deleting the card', 'trello/update_card_details'],
        ['rename the orders collection rather than dropping it', 'mongodb/rename-collection'],
        ['hide the finished checklist items on the card without removing them', 'trello/update_checklist_item'],
        ['reorder the lists on the board, do not delete any', 'trello/update_list_position'],
        ['drop the bug card onto the Backlog list', 'trello/move_card'],
        ['no need to delete the label, rename it to urgent', 'trello/update_label'],
        // The fourth set's rules (each probe fails without its rule): the near future, a refusal of
        // everything, an intention for later, a count question's nouns, "make X the default".
        // (Sending to everyone at once has no tool in the other sets: clauses.test.ts and actions.test.ts cover it.)
        ['which collections are in the analytics database we are about to drop?', 'mongodb/list-collections'],
        ['drop the temp collections in the analytics database; on second thought, do not drop anything yet, list them first', 'mongodb/list-collections'],
        ['list the collections in the analytics database; I want to drop the temp ones next week', 'mongodb/list-collections'],
        ['how many drops of collections happened in the analytics database', 'mongodb/mongodb-logs'],
        ['make the Roadmap data source the default one in Notion', 'notion/API-update-a-data-source'],
        ['make the Notion page Q3 Roadmap a subpage of Planning', 'notion/API-move-page'],
        // The fifth set's rules: a refusal extends over coordinated verbs.
        ['rename the label to urgent, never merge or delete it', 'trello/update_label'],
      ],
      [HELDOUT_CATALOG_DIR]: [
        ['before removing anybody, list the collaborators on the Home project', 'todoist/get_collaborators'],
        ['when the meeting ends, show me the events for tomorrow', 'google-calendar/list-events'],
        ["postpone the dentist appointment to Friday, don't cancel it", 'google-calendar/update-event'],
        ['reschedule the canceled retro to next Monday', 'google-calendar/update-event'],
        ['hide the promotional emails without deleting them', 'gmail/batch_modify_emails'],
        ['drop the task into the Inbox project', 'todoist/move_tasks'],
        ['drop the meeting note into the archive folder', 'obsidian/obsidian_move_note'],
        ['archive the newsletter thread, do not delete the email', 'gmail/modify_email'],
        ['no need to delete the old tasks, close them', 'todoist/close_tasks'],
        ['label the newsletter emails, don\'t archive or delete them', 'gmail/batch_modify_emails'],
        // A removal from a place: no destructive tool taking things from elsewhere leads (no tool here
        // removes files from folders; fails without that rule in semantic mode: airtable/delete_records).
        ['remove the file from the folder', 'airtable/upload_attachment'],
        // Quoted content asks nothing (fails without that rule in semantic mode).
        ['reply to the email from Dana with "sounds good, we removed the duplicate rows and deleted the old sheet"', 'gmail/send_email'],
      ],
    };
    for (const [dir, list] of Object.entries(probes)) {
      const set = { ...loadEvalCatalog(dir), queries: list.map(([query, expected]) => ({ query, expected: [expected], class: 'destructive-check' as const })) };
      expect((await evaluateMode(set, 'lexical')).destructiveFirstPicks).toEqual([]);
      expect((await evaluateMode(set, 'semantic', { embedder: mockEmbedder() })).destructiveFirstPicks).toEqual([]);
    }
  });

  it('semantic search over the mock embeddings (hashed words, subwords and synonyms; not a model) is measured too', async () => {
    const r = await evaluateMode(catalog, 'semantic', { embedder: mockEmbedder() });
    expect(r.mode).toBe('semantic (text-embedding-3-small)');
    expect(r.recall[5]).toBeGreaterThanOrEqual(0.8);
    expect(r.recall[1]).toBeGreaterThanOrEqual(0.6);
  });

  it('hybrid mode scores what the LLM picks, and degrades to the search ranking when the picks are unusable', async () => {
    const embedder = mockEmbedder();
    const semantic = await evaluateMode(catalog, 'semantic', { embedder });
    const llmAnswering = (text: string) => createOpenAIRankingLLM({
      model: 'gpt-4o-mini', apiKey: 'test',
      fetch: mockFetch(createMockLLM({ scenarios: [{ name: 'pick', steps: [{ match: { provider: 'openai' }, respond: { text }, consume: false }] }] })),
    });
    const useless = await evaluateMode(catalog, 'hybrid', { embedder, llm: llmAnswering('I cannot tell.') });
    expect(useless.recall).toEqual(semantic.recall);
    // An LLM that always names the time tool: right at rank 1 for the Tokyo query alone (when it made the short list).
    const fixed = await evaluateMode(catalog, 'hybrid', { embedder, llm: llmAnswering('[{"server":"time","tool":"get_current_time"}]') });
    expect(fixed.misses.map((m) => m.query)).not.toContain('what time is it in Tokyo right now');
  });

  it('computes recall@k and MRR exactly', async () => {
    const tiny = {
      tools: [{ server: 's', name: 'drop_z', description: 'Drop it' }, { server: 's', name: 'w', description: 'W', annotations: { destructiveHint: true } }],
      queries: [{ query: 'a', expected: ['s/x'] }, { query: 'b', expected: ['s/y'], class: 'synonym' as const }, { query: 'c', expected: ['s/w'], class: 'synonym' as const }],
    };
    const r = await scoreRanking('fixed', tiny, async (q) => (q === 'a' ? ['s/x'] : q === 'b' ? ['s/drop_z', 's/w', 's/y'] : ['s/w']));
    expect(r).toMatchObject({ recall: { 1: 0.667, 3: 1, 5: 1 }, mrr: 0.778, misses: [], destructiveFirst: 1 });
    expect(r.byClass).toMatchObject({ direct: { queries: 1, recall: { 1: 1 } }, synonym: { queries: 2, recall: { 1: 0.5, 3: 1 }, destructiveFirst: 1 } });
    expect(r.destructiveFirstPicks).toEqual([{ query: 'b', got: 's/drop_z' }]);
  });
});
