/**
 * Central objects: the thing a product is about, by its own word. Todoist calls it a task, Plane an issue;
 * Rollbar an item, Sentry an issue. Between two servers of one kind (./server-kinds.ts), each one's central
 * object (the head most of its tools act on) stands for the other's when everything about the two says
 * they are one thing under two names:
 * - the servers are clearly of one kind: they act on three or more things of the same name;
 * - each word is central: more of its server's tools act on it than on anything else, at least three;
 * - neither product says the other's word, in any tool's name, description or parameters: a product that
 *   says both (Linear's issue and its subtask) means two things;
 * - both are treated alike: three or more of the same actions act on them (made, read, changed, removed);
 * - both belong to a thing both products have (a parameter names it: a Todoist task and a Plane issue
 *   each take a project).
 * It reads each product's own tool list, not a word list, so it carries to products never seen.
 *
 * Other things of two such servers are one when the software lexicon gives their words as names of one
 * thing (a label and a tag; single words only, never a phrase's), each server acts on its own word and says
 * nothing of the other's, and three or more of the same actions act on both: Todoist's labels and Asana's
 * tags. The lexicon's groups serve search and are loose (an item is a task, a card, a product); the
 * conditions keep a vault's items apart from a chat's tasks.
 */
import { sharedSynonyms, stem, type Synonyms, words } from '../../lexicon/index.ts';

/** Things of the same name two servers act on, at least, for their central objects to be paired. */
export const MIN_SHARED_THINGS = 3;
/** Tools a central object has at least, more than any other head of its server. */
export const MIN_CENTRAL_TOOLS = 3;
/** Actions both central objects are acted on with, at least. */
export const MIN_SHARED_ACTIONS = 3;

/** What central objects read of a tool: its name, description, and from its job its object head, actions and parameter stems. */
export interface CentralTool {
  server: string;
  name: string;
  description: string;
  head?: string;
  actions?: Iterable<string>;
  params?: Iterable<string>;
}

export interface CentralObjects {
  /** The central objects of servers `a` and `b` ([a's word, b's word]) when they are two words for one thing. */
  counterparts(a: string, b: string): readonly [string, string] | undefined;
  /**
   * Things of servers `a` and `b` ([a's word, b's word]) the software lexicon calls by one name (a label, a tag),
   * where each server has one word and says nothing of the other's.
   */
  kin(a: string, b: string): Array<readonly [string, string]>;
}

interface Head {
  tools: number;
  actions: Set<string>;
  params: Set<string>;
}

/**
 * Pairs servers' central objects, from each tool's job.
 * @example
 *   const central = centralObjects(tools); central.counterparts('todoist', 'plane'); // ['task', 'issu']
 */
export function centralObjects(tools: readonly CentralTool[], synonyms: Synonyms = sharedSynonyms()): CentralObjects {
  const heads = new Map<string, Map<string, Head>>();
  const saying = new Map<string, Set<string>>();
  for (const t of tools) {
    let said = saying.get(t.server);
    if (!said) saying.set(t.server, (said = new Set()));
    // Its own words, not the lexicon's: a product saying "task" and "issue" means two things; the lexicon
    // calling them kin does not.
    for (const w of words(`${t.name.replace(/([a-z])([A-Z])/g, '$1 $2')} ${t.description}`)) said.add(stem(w));
    for (const w of t.params ?? []) said.add(w);
    if (t.head === undefined) continue;
    let m = heads.get(t.server);
    if (!m) heads.set(t.server, (m = new Map()));
    let h = m.get(t.head);
    if (!h) m.set(t.head, (h = { tools: 0, actions: new Set(), params: new Set() }));
    h.tools += 1;
    for (const a of t.actions ?? []) h.actions.add(a);
    for (const p of t.params ?? []) h.params.add(p);
  }
  const treatedAlike = (x: Head, y: Head): boolean => [...x.actions].filter((v) => y.actions.has(v)).length >= MIN_SHARED_ACTIONS;
  const of = (s: string): ReadonlyMap<string, Head> => heads.get(s) ?? new Map<string, Head>();
  const clearlyAlike = (a: string, b: string): boolean => [...of(a).keys()].filter((h) => of(b).has(h)).length >= MIN_SHARED_THINGS;
  const central = (s: string): string | undefined => {
    const [first, second] = [...of(s)].sort((x, y) => y[1].tools - x[1].tools);
    return first !== undefined && first[1].tools >= MIN_CENTRAL_TOOLS && (second === undefined || second[1].tools < first[1].tools) ? first[0] : undefined;
  };
  // Asked for every pair a failed call weighs: each pair is read once.
  const kinMemo = new Map<string, Array<readonly [string, string]>>();
  const counterpartMemo = new Map<string, readonly [string, string] | undefined>();
  const memo = <T>(m: Map<string, T>, a: string, b: string, read: () => T): T => {
    const key = `${a}\u0000${b}`;
    if (!m.has(key)) m.set(key, read());
    return m.get(key) as T;
  };
  return {
    kin: (a, b) => memo(kinMemo, a, b, () => kin(a, b)),
    counterparts: (a, b) => memo(counterpartMemo, a, b, () => counterparts(a, b)),
  };

  function kin(a: string, b: string): Array<readonly [string, string]> {
    if (a === b || !clearlyAlike(a, b)) return [];
    const out: Array<readonly [string, string]> = [];
    for (const x of of(a).keys()) {
      if (of(b).has(x) || saying.get(b)?.has(x)) continue;
      for (const y of synonyms.lexiconWords(x)) if (of(b).has(y) && !of(a).has(y) && !saying.get(a)?.has(y) && treatedAlike(of(a).get(x) as Head, of(b).get(y) as Head)) out.push([x, y]);
    }
    return out;
  }

  function counterparts(a: string, b: string): readonly [string, string] | undefined {
    if (a === b) return undefined;
    const x = central(a);
    const y = central(b);
    if (x === undefined || y === undefined || x === y) return undefined;
    if (!clearlyAlike(a, b)) return undefined;
    const shared = [...of(a).keys()].filter((h) => of(b).has(h));
    if (saying.get(a)?.has(y) || saying.get(b)?.has(x)) return undefined;
    const [hx, hy] = [of(a).get(x) as Head, of(b).get(y) as Head];
    if (!treatedAlike(hx, hy)) return undefined;
    return shared.some((h) => hx.params.has(h) && hy.params.has(h)) ? [x, y] : undefined;
  }
}
