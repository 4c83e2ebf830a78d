// Semantic search, incremental re-embedding, fallback ranking and LLM re-ranking, with the
// embeddings and chat answers coming from ghostwire's own mock LLM through the official openai SDK.
import { afterEach, describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import { ToolCatalog } from './catalog.ts';
import { createOpenAIEmbedder, EmbeddingStore, type Embedder } from './embeddings.ts';
import { FallbackResolver, recency, reliability } from './fallback.ts';
import { createOpenAIRankingLLM } from './llm.ts';
import { MetricsRecorder } from './metrics.ts';
import { recommendTools } from './recommend.ts';
import { LEXICAL_NOTE, ToolSearch } from './search.ts';
import { openStore } from './store.ts';
import { manualClock, mockFetch } from './test-helpers.ts';

const BASE = 'https://api.openai.com/v1';

const tools = [
  // "as text": read_text_file does the same job (a text file's contents), as server-filesystem's read_file and read_text_file do.
  { name: 'read_file', description: 'Read the complete contents of a file from disk as text.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'write_file', description: 'Write content to a file on disk, replacing it.', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
  { name: 'read_text_file', description: 'Read a text file from disk as UTF-8.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'list_tables', description: 'List the tables of the database.', inputSchema: { type: 'object', properties: {} } },
];

function counting(embedder: Embedder): Embedder & { texts: string[][] } {
  const texts: string[][] = [];
  return { model: embedder.model, dimensions: embedder.dimensions, texts, embed: (t) => { texts.push(t); return embedder.embed(t); } };
}

describe('the embedder over an OpenAI-compatible endpoint', () => {
  const input = ['read the file contents', 'list the tables'];

  it("asks for the openai SDK's default base64 vectors, and takes float arrays from a server that ignores encoding_format", async () => {
    const mock = createMockLLM();
    const viaMock = await createOpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 1536, apiKey: 'test', baseURL: BASE, fetch: mockFetch(mock) }).embed(input);
    expect(mock.requests.at(-1)?.request?.raw).toMatchObject({ encoding_format: 'base64', input });
    expect(viaMock.map((v) => v.length)).toEqual([1536, 1536]);
    // A server that answers floats whatever was asked (as some OpenAI-compatible ones do): the same vectors.
    const asked: unknown[] = [];
    const floats: typeof fetch = async (_url, init) => {
      asked.push(JSON.parse(String(init?.body)));
      const data = viaMock.map((embedding, index) => ({ object: 'embedding', index, embedding }));
      return Response.json({ object: 'list', model: 'text-embedding-3-small', data, usage: { prompt_tokens: 8, total_tokens: 8 } });
    };
    const viaFloats = await createOpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 1536, apiKey: 'test', baseURL: BASE, fetch: floats }).embed(input);
    expect(asked).toEqual([expect.objectContaining({ encoding_format: 'base64', input })]);
    expect(viaFloats).toEqual(viaMock);
  });
});

describe('semantic search through the mock LLM embeddings API', () => {
  const dbs: Array<{ close(): void }> = [];
  afterEach(() => dbs.splice(0).forEach((d) => d.close()));
  const setup = (scenarios: Parameters<typeof createMockLLM>[0] = {}) => {
    const mock = createMockLLM(scenarios);
    const db = openStore(':memory:');
    dbs.push(db);
    const clock = manualClock();
    const embedder = counting(createOpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 1536, apiKey: 'test', baseURL: BASE, fetch: mockFetch(mock) }));
    const catalog = new ToolCatalog(db, clock.now);
    const store = new EmbeddingStore(db, embedder.model, embedder.dimensions, clock.now);
    const search = new ToolSearch(catalog, { embedder, store });
    const metrics = new MetricsRecorder(db, { now: clock.now });
    return { mock, db, clock, embedder, catalog, store, search, metrics };
  };

  it('embeds every tool once, stores 1536-d float32 BLOBs with the description hash, and ranks by cosine', async () => {
    const { db, embedder, catalog, search } = setup();
    catalog.apply('fs', tools.slice(0, 3));
    catalog.apply('db', tools.slice(3));
    const answer = await search.search('read the file contents', { top_k: 2 });
    expect(answer.mode).toBe('semantic');
    expect(answer.note).toBeUndefined();
    expect(answer.results[0]).toMatchObject({ server: 'fs', tool: 'read_file' });
    expect(answer.results[0].similarity).toBeGreaterThan(answer.results[1].similarity);
    const row = db.prepare('SELECT dimensions, length(embedding) AS bytes, description_hash FROM tool_embeddings WHERE tool_name = ?').get('read_file') as any;
    expect(row).toMatchObject({ dimensions: 1536, bytes: 1536 * 4 });
    expect(row.description_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(embedder.texts[0]).toHaveLength(4);
    await search.search('tables', {});
    expect(embedder.texts.slice(1)).toEqual([['read the file contents'], ['tables']]);
    expect((await search.search('database tables', { server: 'fs' })).results.every((r) => r.server === 'fs')).toBe(true);
    expect((await search.search('read the file contents', { min_similarity: 0.99 })).results).toEqual([]);
  });

  it('re-embeds only changed tools and keeps embeddings across a reopen', async () => {
    const { embedder, catalog, search, store } = setup();
    catalog.apply('fs', tools);
    await search.sync();
    expect(embedder.texts.flat()).toHaveLength(4);
    const changed = [{ ...tools[0], description: 'Open a file and return its bytes.' }, ...tools.slice(1, 3)];
    const summary = catalog.apply('fs', changed);
    expect(summary).toMatchObject({ updated: ['read_file'], removed: ['list_tables'] });
    const n = await search.sync([catalog.get('fs', 'read_file')!], false, ['fs/list_tables']);
    expect(n).toBe(1);
    expect(embedder.texts.at(-1)).toEqual(['read_file: Open a file and return its bytes.\nParameters: path']);
    expect(store.ids().sort()).toEqual(['fs/read_file', 'fs/read_text_file', 'fs/write_file']);
    expect(await search.sync([catalog.get('fs', 'write_file')!], true)).toBe(1);
  });

  it('falls back to lexical search with a note when the embeddings API fails', async () => {
    const { catalog, search } = setup({ scenarios: [{ name: 'down', steps: [{ match: { provider: 'embeddings' }, respond: { error: { status: 500, message: 'embeddings down' } }, consume: false }] }] });
    catalog.apply('fs', tools);
    const answer = await search.search('read a file', { top_k: 1 });
    expect(answer.mode).toBe('lexical');
    expect(answer.note).toMatch(/^Embeddings API failed \(.*\); results come from local lexical search/);
    expect(answer.results[0].tool).toBe('read_file');
    const lexicalOnly = new ToolSearch(catalog);
    expect((await lexicalOnly.search('read a file')).note).toBe(LEXICAL_NOTE);
  });

  it('ranks fallbacks by similarity x success rate x recency, prefers the same server, skips failing tools', async () => {
    const { catalog, search, metrics, clock } = setup();
    catalog.apply('fs', tools.slice(0, 3));
    catalog.apply('other', [{ ...tools[2], name: 'read_text_file' }]);
    const resolver = new FallbackResolver(search, metrics, { maxFallbacks: 3, isAvailable: (s) => s !== 'down', now: clock.now });
    const first = await resolver.find('fs', 'read_file');
    expect(first.map((f) => `${f.server}/${f.tool}`).slice(0, 2)).toEqual(['fs/read_text_file', 'other/read_text_file']);
    expect(first[0].reason).toMatch(/same server/);
    expect(first[0].success_rate).toBeNull();
    for (let i = 0; i < 4; i++) metrics.record({ server: 'fs', tool: 'read_text_file', success: false, latencyMs: 1, error: 'x' });
    const after = await resolver.find('fs', 'read_file');
    expect(after.map((f) => `${f.server}/${f.tool}`)).not.toContain('fs/read_text_file');
    expect(after[0]).toMatchObject({ server: 'other', tool: 'read_text_file' });
    expect(await resolver.find('fs', 'read_file', 1)).toHaveLength(1);
    const gone = new FallbackResolver(search, metrics, { maxFallbacks: 3, isAvailable: (s) => s !== 'other', now: clock.now });
    expect((await gone.find('fs', 'read_file')).map((f) => f.server)).not.toContain('other');
    expect(reliability(undefined)).toBe(0.75);
    const m = { call_count: 2, success_count: 2, last_success_at: new Date(clock.now()).toISOString() } as any;
    expect(reliability(m)).toBe(0.75);
    expect(recency(m, clock.now())).toBe(1);
    expect(recency(m, clock.now() + 70 * 86_400_000)).toBeCloseTo(0.5, 3);
  });

  it("reads the catalog's jobs once per catalog state: a tool added or removed between failures is seen", async () => {
    const { catalog, search, metrics, clock } = setup();
    catalog.apply('fs', tools.slice(0, 3));
    const resolver = new FallbackResolver(search, metrics, { maxFallbacks: 3, isAvailable: () => true, now: clock.now });
    const ids = async () => (await resolver.find('fs', 'read_file')).map((f) => `${f.server}/${f.tool}`);
    expect(await ids()).toEqual(['fs/read_text_file']);
    catalog.apply('other', [{ ...tools[2], name: 'read_text_file' }]);
    await search.sync();
    expect(await ids()).toEqual(['fs/read_text_file', 'other/read_text_file']);
    catalog.apply('other', []);
    await search.sync();
    expect(await ids()).toEqual(['fs/read_text_file']);
    catalog.apply('fs', tools.slice(0, 1));
    await search.sync();
    expect(await ids()).toEqual([]);
  });

  it('hybrid: the LLM re-ranks the short list; reliability breaks ties; bad picks are left out', async () => {
    const picks = JSON.stringify({ recommendations: [
      { server: 'fs', tool: 'read_text_file', reason: 'plain text read' }, { server: 'fs', tool: 'invented' }, { server: 'fs', tool: 'read_file' }] });
    const { mock, catalog, search, metrics } = setup({ scenarios: [{ name: 'rank', steps: [{ match: { provider: 'openai' }, respond: { text: `Here you go:\n\`\`\`json\n${picks}\n\`\`\`` }, consume: false }] }] });
    catalog.apply('fs', tools);
    const llm = createOpenAIRankingLLM({ model: 'gpt-4o-mini', apiKey: 'test', baseURL: BASE, fetch: mockFetch(mock) });
    metrics.record({ server: 'fs', tool: 'read_file', success: true, latencyMs: 4 });
    const deps = { catalog, search, metrics, llm, includeMetrics: true, isAvailable: () => true };
    const hybrid = await recommendTools(deps, 'read a text file', { search_mode: 'hybrid', top_k: 3 });
    expect(hybrid.ranking).toBe('semantic+llm');
    expect(hybrid.recommendations.map((r) => r.tool)).toEqual(['read_text_file', 'read_file']);
    expect(hybrid.recommendations[0].reason).toBe('plain text read');
    expect(hybrid.recommendations[1].metrics).toEqual({ success_rate: 1, avg_latency_ms: 4, call_count: 1 });
    expect(hybrid.notes).toContain('The LLM named tools not in the list; they were left out.');
    const chat = mock.requests.filter((r) => r.provider === 'openai');
    expect(chat).toHaveLength(1);
    expect(chat[0].path).toBe('/v1/chat/completions');
    // The short list the LLM saw carries the task, the candidates and their reliability.
    const prompt = chat[0].request?.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('Task: read a text file');
    expect(prompt).toContain('- fs/read_file: Read the complete contents of a file from disk as text. [success rate 100% over 1 calls]');
    const llmMode = await recommendTools(deps, 'read a text file', { search_mode: 'llm', top_k: 1 });
    expect(llmMode).toMatchObject({ ranking: 'llm', recommendations: [{ tool: 'read_text_file' }] });
    const semantic = await recommendTools(deps, 'list database tables', { search_mode: 'semantic', top_k: 1 });
    expect(semantic).toMatchObject({ ranking: 'semantic', recommendations: [{ tool: 'list_tables' }] });
  });
});

describe('search keeps destructive tools off the top, using the servers\' annotations', () => {
  const dbs: Array<{ close(): void }> = [];
  afterEach(() => dbs.splice(0).forEach((d) => d.close()));
  const jira = [
    { name: 'jira_delete', description: 'Delete Jira resources, tickets included.', inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'API path of the ticket' } } }, annotations: { destructiveHint: true } },
    { name: 'jira_post', description: 'Create Jira resources.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'run_statement', description: 'Run a SQL statement against the tables.', inputSchema: { type: 'object', properties: { sql: { type: 'string' } } } },
  ];

  it('lexical: a destructive annotation holds a tool back unless its action is asked; server descriptions are searched', async () => {
    const db = openStore(':memory:');
    dbs.push(db);
    const catalog = new ToolCatalog(db);
    catalog.apply('jira', jira.slice(0, 2));
    catalog.apply('db', jira.slice(2));
    catalog.apply('wx', [{ name: 'lookup', description: 'Look something up.', inputSchema: { type: 'object' } }]);
    const search = new ToolSearch(catalog, undefined, { serverDescriptions: { wx: 'Weather forecasts for any city.' } });
    const top = async (q: string) => (await search.search(q, { top_k: 3 })).results.map((r) => `${r.server}/${r.tool}`);
    expect((await top('open a Jira ticket for the login bug'))[0]).toBe('jira/jira_post');
    expect((await top('delete the Jira ticket PROJ-1'))[0]).toBe('jira/jira_delete');
    expect((await top('show the tables'))[0]).toBe('db/run_statement');
    expect(await top('weather in Paris')).toEqual(['wx/lookup']);
    // The same statement tool, now annotated destructive: a read-only question no longer gets it first.
    catalog.apply('db', [{ ...jira[2], annotations: { destructiveHint: true } }, { name: 'list_tables', description: 'List the database tables.', inputSchema: { type: 'object' } }]);
    search.invalidate();
    expect((await top('show the tables'))[0]).toBe('db/list_tables');
  });

  it('semantic: the same rule reorders cosine results', async () => {
    const db = openStore(':memory:');
    dbs.push(db);
    const catalog = new ToolCatalog(db);
    catalog.apply('jira', jira.slice(0, 2));
    const embedder = createOpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 1536, apiKey: 'test', baseURL: BASE, fetch: mockFetch(createMockLLM()) });
    const search = new ToolSearch(catalog, { embedder, store: new EmbeddingStore(db, embedder.model, embedder.dimensions) });
    const answer = await search.search('jira tickets resources', { top_k: 2 });
    expect(answer.mode).toBe('semantic');
    expect(answer.results.map((r) => r.tool)).toEqual(['jira_post', 'jira_delete']);
    expect(answer.results[1].similarity).toBeGreaterThan(answer.results[0].similarity);
  });
});

