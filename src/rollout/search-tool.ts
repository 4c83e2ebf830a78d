import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { Bm25Index, type SearchBackend, type SearchDocument } from './bm25.ts';
import type { Tool, ToolActionResult } from './env.ts';
import { pyStrip } from './roll-messages.ts';

/** GEM's SearchTool instruction (gem/tools/search_tool.py), word for word. */
export const GEM_SEARCH_INSTRUCTION =
  'You have access to a search engine to help answer questions.\n\n' +
  'Additional instructions:\n' +
  '- If your initial reasoning in <think> shows you lack some knowledge, explain what you need to find next inside a new <think> block.\n' +
  '- Then issue a search query using:\n' +
  '  <search> your query here </search>\n' +
  '- The search engine will provide results inside:\n' +
  '  <information> ... </information>\n' +
  '- You may repeat the <think> and <search> steps as many times as needed.\n' +
  '- When you are ready, give your final answer in:\n' +
  '  <answer> your answer here </answer>';

const DocumentSchema = z.union([z.object({ contents: z.string() }), z.object({ title: z.string(), text: z.string() }).transform((d) => ({ contents: `${d.title}\n${d.text}` }))]);

/** The `search` tool's args (GEM's names, then ghostwire's document set). */
export const SearchToolArgsSchema = z.strictObject({
  topk: z.coerce.number().int().positive().default(3),
  timeout: z.coerce.number().positive().default(5),
  num_workers: z.coerce.number().int().positive().optional(),
  /** GEM's retrieval server URL: not reachable from here (it speaks msgpack); give `documents` or a backend. */
  search_url: z.string().nullable().optional(),
  /** ghostwire: the documents to search with the built-in BM25 backend. */
  documents: z.array(DocumentSchema).optional(),
  /** ghostwire: a JSON file (a list) or JSONL file of such documents. */
  documents_file: z.string().min(1).optional(),
  /** ghostwire: any backend with `search(query, topk)`. */
  backend: z.custom<SearchBackend>((v) => typeof v === 'object' && v !== null && typeof (v as SearchBackend).search === 'function', 'expected an object with search(query, topk)').optional(),
});
export type SearchToolArgs = z.input<typeof SearchToolArgsSchema>;

/**
 * GEM's `search` tool: `<search>query</search>` (the first one) runs the query on a
 * backend and answers GEM's reference list, `Doc 1(Title: …) text\n…`. A backend
 * failure answers `[SearchTool Error: …]` and counts as a failed call. Backends
 * plug in (`backend`); the built-in one is a local BM25 index over `documents`.
 *
 * @example
 * const tool = new SearchTool({ documents: [{ contents: '"Paris"\nParis is the capital of France.' }] });
 * const r = await tool.executeAction('<search>capital of France</search>');
 * // r.observation === 'Doc 1(Title: "Paris") Paris is the capital of France.\n'
 */
export class SearchTool implements Tool {
  readonly toolType = 'search';
  readonly topk: number;
  readonly backend: SearchBackend;

  constructor(args: SearchToolArgs = {}) {
    const parsed = SearchToolArgsSchema.safeParse(args);
    if (!parsed.success) {
      throw new Error(`tool "search": invalid tool_args: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(args)'}: ${i.message}`).join('; ')}`);
    }
    const a = parsed.data;
    this.topk = a.topk;
    if (a.backend) this.backend = a.backend;
    else if (a.documents || a.documents_file) this.backend = new Bm25Index([...(a.documents ?? []), ...(a.documents_file ? readDocuments(a.documents_file) : [])]);
    else {
      throw new Error(
        `tool "search": needs "documents", "documents_file" or a "backend"${a.search_url ? ` (search_url ${JSON.stringify(a.search_url)} is GEM's msgpack retrieval server, which ghostwire does not call)` : ''}`,
      );
    }
  }

  instructionString(): string {
    return GEM_SEARCH_INSTRUCTION;
  }

  async executeAction(action: string): Promise<ToolActionResult> {
    const m = /<search>(.*?)<\/search>/s.exec(action);
    if (!m) return { isParsed: false, isValid: false, observation: '', parsedAction: action };
    const parsedAction = action.slice(0, m.index + m[0].length);
    let observation: string;
    try {
      observation = passagesToString(await this.backend.search(pyStrip(m[1]), this.topk));
    } catch (error) {
      observation = `[SearchTool Error: ${(error as Error).message}]`;
    }
    return { isParsed: true, isValid: !observation.includes('[SearchTool Error:'), observation, parsedAction };
  }
}

/** GEM's `_passages2string`: the first line of each document is its title. */
function passagesToString(documents: readonly SearchDocument[]): string {
  return documents
    .map((doc, i) => {
      const [title, ...rest] = doc.contents.split('\n');
      return `Doc ${i + 1}(Title: ${title}) ${rest.join('\n')}\n`;
    })
    .join('');
}

function readDocuments(file: string): SearchDocument[] {
  const text = readFileSync(file, 'utf8');
  const trimmed = text.trimStart();
  const rows: unknown[] = trimmed.startsWith('[') ? (JSON.parse(text) as unknown[]) : text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);
  return rows.map((row, i) => {
    const parsed = DocumentSchema.safeParse(row);
    if (!parsed.success) throw new Error(`${file}: document ${i}: expected { contents } or { title, text }`);
    return parsed.data;
  });
}
