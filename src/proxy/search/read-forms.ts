/**
 * Forms of a read, for same-job (./same-job.ts): a tool whose verb reads may list, search, read one or read a
 * batch, and its name and its description's opening say which in general English. "get_tasks_list" and "Get
 * all projects …" list; "get_tasks_by_filter" searches; "Get comments from Todoist by ID" reads one; a read of
 * a plural that needs the ones it reads (required `items` or `ids`) reads a batch of them.
 */

/** Name words that, after "by" or "using", make a read a search. */
const FILTERING = new Set(['filter', 'filters', 'query', 'search', 'keyword', 'keywords', 'criteria']);
/** Name words that, last after a reading verb, make it list what precedes them. */
const LISTING = new Set(['list', 'listing']);
/** Name words that say how, not what: "with_sizes" lists the same directory, only with more detail; "by_filter" searches. */
export const OPTION: ReadonlySet<string> = new Set(['with', 'including', 'by', 'as', 'using', 'via']);

const readsOnly = (actions: ReadonlySet<string>): boolean => actions.size === 1 && actions.has('read');

/**
 * What a read's name after its verb says: a search by a filter or a query ("get_tasks_by_filter"), or a
 * listing of what precedes "list" ("get_tasks_list", `object` then without "list"); undefined otherwise.
 * @example
 *   readByName(new Set(['read']), ['tasks', 'list']); // { action: 'list', object: ['tasks'] }
 */
export function readByName(actions: ReadonlySet<string>, after: readonly string[]): { action: 'search' | 'list'; object: string[] } | undefined {
  if (!readsOnly(actions)) return undefined;
  if (after.some((w, i) => OPTION.has(w) && FILTERING.has(after[i + 1] ?? ''))) return { action: 'search', object: [...after] };
  if (after.length >= 2 && LISTING.has(after.at(-1) as string) && !OPTION.has(after.at(-2) as string)) return { action: 'list', object: after.slice(0, -1) };
  return undefined;
}

/**
 * Whether a description opens by finding the plural its name says by one ID ("Get comments from Todoist by
 * ID"): not "List backups for a cluster by its ID" (the cluster's), nor "Get assets by their IDs" (a batch).
 * @example
 *   opensByOneId('Get comments from Todoist by ID'); // true
 */
export function opensByOneId(description: string): boolean {
  return /^\s*\w+ (?:\w+ ){0,3}?\w+s (?:from [\w ]{1,30}? )?by (?:its |an |the )?id\b/i.test(description);
}

/**
 * Whether a read of a plural needs the ones it reads (a required `items` or `ids`: Todoist's `get_tasks`):
 * a batch read, one or more, as a batch write writes them.
 * @example
 *   readsBatch(new Set(['read']), ['items']); // true
 */
export function readsBatch(actions: ReadonlySet<string>, required: readonly string[]): boolean {
  return readsOnly(actions) && required.some((p) => /^(?:items|ids|\w+_?ids|\w+Ids)$/.test(p));
}

/**
 * Whether a read of a plural lists them: its description opens by reading all of them or a list of them ("Get
 * all projects for the current user", "Get a list of recent issues").
 * @example
 *   readsAll(new Set(['read']), 'Get all projects for the current user'); // true
 */
export function readsAll(actions: ReadonlySet<string>, description: string): boolean {
  return readsOnly(actions) && /^\s*\w+ (?:all (?:the )?\w+s\b|(?:a|the) list of\b)/i.test(description);
}
