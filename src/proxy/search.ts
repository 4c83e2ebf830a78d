/**
 * Tool search (seed Phase 3): cosine similarity over stored embeddings when an embeddings API is
 * configured, otherwise BM25 over names, descriptions and parameter names, saying so in the answer.
 */
import type { CatalogTool, ToolCatalog } from './catalog.ts';
import { EmbeddingStore, splitToolId, toolId, type Embedder } from './embeddings.ts';
import { descriptionHash, parameterNames, searchText } from './hashing.ts';
import { sharedSynonyms } from '../lexicon/index.ts';
import { LexicalIndex, namedTerms } from './lexical.ts';
import { isDestructive, leadWithAsked, queryActions, toolActions } from './search/actions.ts';
import { heldBack, nameObjects } from './search/held-back.ts';
import { detachment, toolSource } from './search/detach.ts';
import { namedServers, serverPatterns } from './search/query-terms.ts';

export interface SearchOptions {
  top_k?: number;
  min_similarity?: number;
  server?: string;
  /** Leaves out tools for which this returns false (e.g. servers whose breaker is open). */
  allow?: (server: string, tool: string) => boolean;
}

export interface SearchHit {
  server: string;
  tool: string;
  description: string;
  similarity: number;
}

export interface SearchAnswer {
  mode: 'semantic' | 'lexical';
  note?: string;
  results: SearchHit[];
}

export const LEXICAL_NOTE = 'No embeddings API configured (set recommend_tools.embeddings: a base_url, or an API key in OPENAI_API_KEY): results come from local lexical search (BM25 over tool names, descriptions and parameters, with WordNet synonyms).';

/** Descriptions of a JSON Schema object's top-level parameters. */
function parameterDescriptions(schema: Record<string, unknown> | undefined): string[] {
  const props = (schema?.properties ?? {}) as Record<string, { description?: unknown } | undefined>;
  return Object.values(props).map((p) => (typeof p?.description === 'string' ? p.description : '')).filter(Boolean);
}

/**
 * Searches the catalog.
 * @example
 *   const search = new ToolSearch(catalog, { embedder, store });
 *   await search.sync();
 *   const answer = await search.search('read a file', { top_k: 5 });
 */
export class ToolSearch {
  readonly catalog: ToolCatalog;
  readonly embedder?: Embedder;
  readonly store?: EmbeddingStore;
  /** Texts sent to the embeddings API so far (for re-index accounting). */
  embeddedTexts = 0;
  private lexical?: LexicalIndex;
  /** The process's Synonyms for every rebuild of the lexical index, so lookups stay memoised. */
  private readonly synonyms = sharedSynonyms();
  /** What each server says about itself (e.g. its MCP instructions), searched with a low weight. */
  private readonly serverDescriptions?: Record<string, string>;
  /** Whether stored embeddings may lag the catalog (checked in full on next search). */
  private unsynced = true;
  /** Texts waiting to be embedded: refreshes of many servers at once share one API call. */
  private queue: Array<{ texts: string[]; resolve: (v: number[][]) => void; reject: (e: unknown) => void }> = [];

  constructor(catalog: ToolCatalog, semantic?: { embedder: Embedder; store: EmbeddingStore }, options: { serverDescriptions?: Record<string, string> } = {}) {
    this.catalog = catalog;
    this.serverDescriptions = options.serverDescriptions;
    this.embedder = semantic?.embedder;
    this.store = semantic?.store;
  }

  get mode(): 'semantic' | 'lexical' {
    return this.embedder ? 'semantic' : 'lexical';
  }

  /** The catalog changed outside sync(): indexes are brought up to date on next use. */
  invalidate(): void {
    this.lexical = undefined;
    this.unsynced = true;
  }

  private lexicalIndex(): LexicalIndex {
    this.lexical ??= new LexicalIndex(this.catalog.tools().map((t) => ({
      id: toolId(t.server, t.name), name: t.name, description: t.description, params: parameterNames(t.inputSchema),
      paramDescriptions: parameterDescriptions(t.inputSchema), annotations: t.annotations,
      serverDescription: this.serverDescriptions?.[t.server],
    })), { synonyms: this.synonyms });
    return this.lexical;
  }

  /**
   * Embeds tools whose description hash differs from the stored one (all of `tools` when forced);
   * drops embeddings of `removed`. Returns how many texts were embedded.
   */
  async sync(only?: CatalogTool[], force = false, removed: string[] = []): Promise<number> {
    this.lexical = undefined;
    if (!this.embedder || !this.store) return 0;
    const store = this.store;
    const tools = only ?? this.catalog.tools();
    if (!only) {
      // A full sync also forgets embeddings of tools that left the catalog.
      const live = new Set(tools.map((t) => toolId(t.server, t.name)));
      removed = [...removed, ...store.ids().filter((id) => !live.has(id))];
    }
    if (removed.length) store.delete(removed);
    const todo = tools
      .map((t) => ({ id: toolId(t.server, t.name), hash: descriptionHash(t), text: searchText(t) }))
      .filter((t) => force || store.hashOf(t.id) !== t.hash);
    if (todo.length > 0) {
      const vectors = await this.embedCoalesced(todo.map((t) => t.text));
      this.embeddedTexts += todo.length;
      store.put(todo.map((t, i) => ({ id: t.id, descriptionHash: t.hash, vector: vectors[i] })));
    }
    if (!only) this.unsynced = false;
    return todo.length;
  }

  private embedCoalesced(texts: string[]): Promise<number[][]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ texts, resolve, reject });
      if (this.queue.length === 1) setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      const vectors = await (this.embedder as Embedder).embed(batch.flatMap((b) => b.texts));
      let at = 0;
      for (const b of batch) {
        b.resolve(vectors.slice(at, at + b.texts.length));
        at += b.texts.length;
      }
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }

  /** Top tools for a query. Falls back to lexical search, with a note, when embedding fails. */
  async search(query: string, options: SearchOptions = {}): Promise<SearchAnswer> {
    const k = options.top_k ?? 10;
    const min = options.min_similarity ?? 0;
    // No filter at all when nothing is filtered: the indexes would otherwise split every id they weigh.
    const allow = options.server === undefined && !options.allow ? undefined : (id: string): boolean => {
      const [server, tool] = splitToolId(id);
      if (options.server !== undefined && server !== options.server) return false;
      return !options.allow || options.allow(server, tool);
    };
    let note: string | undefined;
    if (this.embedder && this.store) {
      try {
        if (this.unsynced) await this.sync();
        const [vector] = await this.embedder.embed([query]);
        // More than asked, so a held-back destructive lead has a harmless hit to give way to even when the
        // nearest tools all delete ("how do I delete a branch" near every delete_* tool).
        const hits = this.store.index.search(vector, Math.max(k * 3, 100), min, allow);
        const results = hits.map((h) => this.hit(h.id, h.similarity)).filter((h): h is SearchHit => h !== undefined);
        return { mode: 'semantic', results: this.guard(query, results).slice(0, k) };
      } catch (err) {
        note = `Embeddings API failed (${(err as Error).message}); results come from local lexical search.`;
      }
    }
    const hits = this.lexicalIndex().search(query, k * 2, allow).filter((h) => h.similarity >= min).slice(0, k);
    return {
      mode: 'lexical',
      note: note ?? LEXICAL_NOTE,
      results: hits.map((h) => this.hit(h.id, h.similarity)).filter((h): h is SearchHit => h !== undefined),
    };
  }

  /** Tools most similar to a given tool (for fallbacks), itself excluded; only those `allow` lets through when given. */
  async similarTo(server: string, tool: string, k: number, allow?: (id: string) => boolean): Promise<SearchHit[]> {
    const self = this.catalog.get(server, tool);
    if (!self) return [];
    const id = toolId(server, tool);
    const notSelf = (other: string): boolean => other !== id && (!allow || allow(other));
    if (this.embedder && this.store) {
      try {
        if (this.unsynced) await this.sync();
        const v = this.store.index.vector(id);
        if (v) return this.store.index.search(v, k, 0, notSelf).map((h) => this.hit(h.id, h.similarity)).filter((h): h is SearchHit => !!h);
      } catch {
        // fall through to lexical similarity
      }
    }
    return this.lexicalIndex().search(searchText(self), k, notSelf)
      .map((h) => this.hit(h.id, h.similarity)).filter((h): h is SearchHit => !!h);
  }

  /**
   * Reorders hits so that a destructive tool whose action the query does not ask for never leads
   * (lexical search does this itself; re-rankers call it after their own sort).
   */
  guard<T extends { server: string; tool: string; description: string }>(query: string, hits: T[]): T[] {
    const asked = queryActions(query, { methods: false });
    if (detachment(query)) asked.add('update');
    const named = { ...namedTerms(query, this.synonyms), servers: namedServers(query, serverPatterns(this.catalog.servers())) };
    return leadWithAsked(hits, (h) => {
      const t = this.catalog.get(h.server, h.tool);
      const actions = toolActions(h.tool, h.description);
      const target = { ...nameObjects(h.tool, h.server, h.description), source: toolSource(h.tool, h.description, h.server), server: h.server };
      return heldBack(query, asked, h.tool, actions, isDestructive(actions, t?.annotations), named, target);
    });
  }

  private hit(id: string, similarity: number): SearchHit | undefined {
    const [server, tool] = splitToolId(id);
    const t = this.catalog.get(server, tool);
    if (!t) return undefined;
    return { server, tool, description: t.description, similarity: Math.round(similarity * 10_000) / 10_000 };
  }
}
