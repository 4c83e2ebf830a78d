// Search quality over the catalog of real tool descriptions: the figures must not regress.
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import { DEFAULT_CATALOG_DIR, mockEmbedder } from './eval-command.ts';
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

  it('lexical BM25 finds the right tool in the top 5 for most tasks', async () => {
    const r = await evaluateMode(catalog, 'lexical');
    expect(r.recall[5]).toBeGreaterThanOrEqual(0.8);
    expect(r.recall[1]).toBeGreaterThanOrEqual(0.55);
    expect(r.recall[1]).toBeLessThanOrEqual(r.recall[3]);
  });

  it('semantic search over the mock embeddings (word hashing, not a model) is measured too', async () => {
    const r = await evaluateMode(catalog, 'semantic', { embedder: mockEmbedder() });
    expect(r.mode).toBe('semantic (text-embedding-3-small)');
    expect(r.recall[5]).toBeGreaterThanOrEqual(0.6);
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
    const tiny = { tools: [], queries: [{ query: 'a', expected: ['s/x'] }, { query: 'b', expected: ['s/y'] }] };
    const r = await scoreRanking('fixed', tiny, async (q) => (q === 'a' ? ['s/x'] : ['s/z', 's/w', 's/y']));
    expect(r).toMatchObject({ recall: { 1: 0.5, 3: 1, 5: 1 }, mrr: 0.667, misses: [] });
  });
});
