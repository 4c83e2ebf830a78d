import { describe, expect, it } from 'vitest';
import { ToolCatalog } from './catalog.ts';
import { parsePicks } from './llm.ts';
import { MetricsRecorder } from './metrics.ts';
import { recommendTools } from './recommend.ts';
import { ToolSearch } from './search.ts';
import { openStore } from './store.ts';

describe('parsePicks', () => {
  it.each([
    ['[{"server":"a","tool":"x","reason":"r"}]', [{ server: 'a', tool: 'x', reason: 'r' }]],
    ['Sure!\n```json\n{"recommendations":[{"server_name":"a","tool_name":"y"}]}\n```', [{ server: 'a', tool: 'y', reason: undefined }]],
    ['I pick {"tools": ["a/x", "b/z"]} for you.', [{ server: 'a', tool: 'x' }, { server: 'b', tool: 'z' }]],
    ['no idea', []],
    ['[{"tool":"x"}]', []],
  ])('reads %j', (text, picks) => {
    expect(parsePicks(text)).toEqual(picks);
  });
});

describe('recommendTools without a working LLM', () => {
  const db = openStore(':memory:');
  const catalog = new ToolCatalog(db);
  catalog.apply('fs', [
    { name: 'read_file', description: 'Read a file from disk.' },
    { name: 'delete_file', description: 'Delete a file from disk.' },
  ]);
  const metrics = new MetricsRecorder(db);
  const deps = { catalog, search: new ToolSearch(catalog), metrics, includeMetrics: true, isAvailable: () => true };

  it('ranks by search alone when the LLM call fails, saying why', async () => {
    const answer = await recommendTools({ ...deps, llm: { complete: async () => { throw new Error('503 from upstream'); } } }, 'read a file', { search_mode: 'hybrid' });
    expect(answer.ranking).toBe('lexical');
    expect(answer.notes).toContain('LLM ranking failed (503 from upstream): ranked by search alone.');
    expect(answer.recommendations[0].tool).toBe('read_file');
  });

  it('says so when no LLM is configured for llm mode', async () => {
    const answer = await recommendTools(deps, 'delete a file', { search_mode: 'llm', top_k: 1 });
    expect(answer.notes[0]).toMatch(/search_mode "llm" needs an LLM/);
    expect(answer.recommendations.map((r) => r.tool)).toEqual(['delete_file']);
  });

  it('never leads with a destructive tool the task did not ask for, even when the LLM picks it first', async () => {
    const llm = { complete: async () => '[{"server":"fs","tool":"delete_file","reason":"cleans up"},{"server":"fs","tool":"read_file"}]' };
    const read = await recommendTools({ ...deps, includeMetrics: false, llm }, 'show me what is in the file', { search_mode: 'hybrid', top_k: 2 });
    expect(read.recommendations.map((r) => r.tool)).toEqual(['read_file', 'delete_file']);
    // Asked for, it leads as the LLM ranked it.
    const del = await recommendTools({ ...deps, includeMetrics: false, llm }, 'delete the file', { search_mode: 'hybrid', top_k: 2 });
    expect(del.recommendations.map((r) => r.tool)).toEqual(['delete_file', 'read_file']);
    // The same guard as search: a leading clause is not the request, and a refused delete holds every deleting tool back.
    for (const task of ['before I delete it, show me what is in the file', 'tidy up the file without deleting it', 'delete nothing, check the file']) {
      const held = await recommendTools({ ...deps, includeMetrics: false, llm }, task, { search_mode: 'hybrid', top_k: 2 });
      expect(held.recommendations.map((r) => r.tool), task).toEqual(['read_file', 'delete_file']);
    }
  });

  it('lets reliability lower a tool that keeps failing', async () => {
    for (let i = 0; i < 10; i++) metrics.record({ server: 'fs', tool: 'read_file', success: false, latencyMs: 1, error: 'EIO' });
    const answer = await recommendTools(deps, 'read or delete a file from disk', { search_mode: 'semantic', top_k: 2 });
    expect(answer.recommendations.map((r) => r.tool)).toEqual(['delete_file', 'read_file']);
    expect(answer.recommendations[1].metrics).toMatchObject({ success_rate: 0, call_count: 10 });
  });
});
