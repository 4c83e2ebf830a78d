/**
 * Whether two tools do the same job, for fallbacks: the same action (from the name's verb, else the
 * description's, else a read-only annotation) on the same kind of object (the name's object words, each
 * one found in the other tool's own text or through the software lexicon). read_file and its successor
 * read_text_file do; read_text_file and write_file (read/write), create_entities and delete_entities
 * (create/delete), create_issue and create_pull_request (different objects) do not.
 */
import { sharedSynonyms, stem, STOPWORDS, type Synonyms, words } from '../../lexicon/index.ts';
import { toolActions } from './actions.ts';
import { opensByOneId, OPTION, readByName, readsAll, readsBatch } from './read-forms.ts';
import { OBJECT_END, unknownVerb, verbOf } from './verbs.ts';

/** What same-job reads of a tool. */
export interface JobTool {
  server: string;
  name: string;
  description: string;
  /** Parameter names. */
  params: string[];
  /** Required parameter names. */
  required?: string[];
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
  /** Words that start most of its server's tool names ("browser"): a family, not what it acts on. */
  family?: ReadonlySet<string>;
}

/** A tool's job: its action, the object its name acts on (stems), and every stem its own text reaches. */
export interface Job {
  /** Actions of the verb table, or `v:<stem>` for a verb the table does not know ("navigate", "click"). */
  actions: ReadonlySet<string>;
  /** The stem of the name's own verb when the verb table does not know it ("navigate", "force"). */
  verb?: string;
  /** What the name acts on; empty when the name says only the server and the verb (`tavily_search`). */
  object: ReadonlySet<string>;
  /** Whether its name says it acts on many at once ("all", "multiple", "batch"). */
  many: boolean;
  /** The object's head noun, its last word ("release_pipelines" → pipelin). */
  head?: string;
  /** Where the name says it acts ("from_images" → imag). */
  place: readonly string[];
  /** Whether the name's object is plural ("checks"), singular ("check"), or it has none. */
  plural?: boolean;
  /** Stems of its name and what its description says first (two sentences), and what the lexicon also calls them. */
  reach: ReadonlySet<string>;
  /** Stems of the words before its name's verb, when its object follows the verb ("atlas" of atlas-list-projects). */
  qualifier: readonly string[];
  /** Its required parameters that name a reference (messageId), and all its reference parameters. */
  ids: ReadonlySet<string>;
  refs: ReadonlySet<string>;
  /** Stems of its parameter names. */
  params: ReadonlySet<string>;
  /** Stems of each required parameter's name. */
  required: ReadonlyArray<ReadonlySet<string>>;
}

/**
 * Name words that say nothing of the object: a thing's "details" are more of its fields (`get_repository_details`),
 * and a manner says how, not what (`search_records_advanced`).
 */
const NOISE = new Set(['api', 'mcp', 'tool', 'tools', 'server', 'or', 'and', 'id', 'detail', 'details', 'detailed', 'advanced', 'basic', 'simple', 'quick', 'extended', 'the', 'a', 'an', 'my', 'your', 'our', 'this', 'that', 'of']);
/** Name words that say nothing of what a tool does. */
const NAME_NOISE = new Set(['tool', 'tools', 'api', 'mcp']);
/** What a server's name may add to its product's ("cosmosdb" is Cosmos). */
const PRODUCT_SUFFIX = ['db', 'mcp', 'io', 'js', 'hq', 'app', 'ai'];
/** Actions that make something new. */
const MAKING = ['create', 'send'];
/** Actions that make, change or remove what they act on. */
const WRITING = ['create', 'update', 'delete'];
/** Light verbs (stems): they say their object's own action ("take_screenshot", "make_call", "do_search"). */
const LIGHT = new Set(['take', 'make', 'do', 'perform', 'have', 'give']);
/** Name words that make it act on one ("insert-one", "get_single_item"). */
const ONE = new Set(['one', 'single']);
/** Name words that make it act on many at once ("approve_all", "read_multiple_files", "batch_delete"). */
const MANY = new Set(['all', 'many', 'multiple', 'batch', 'bulk']);
/** Verbs that start or stop something: starting never stands in for stopping. */
const START = new Set(['start', 'begin', 'launch', 'spawn']);
const STOP = new Set(['stop', 'end', 'halt', 'abort', 'close', 'kill', 'terminate', 'cancel']);
/**
 * Verbs that read a page's or a file's content, besides the verb table's: search leaves them out of its
 * table so that the words of a name like `firecrawl_scrape` still count for what it does ("pull the text
 * out of this page" meets them through the lexicon).
 */
const READING = new Set(['scrape', 'extract']);

/**
 * Reads a tool's job.
 * @example
 *   jobOf({ server: 'fs', name: 'list_directory_with_sizes', description: 'List a directory', params: ['path'] }, new Synonyms()).object; // Set { 'directori' }
 */
export function jobOf(tool: JobTool, synonyms: Synonyms): Job {
  // Leading words naming the server or the family ("brave_web_search", "browser_click") say whose tool it
  // is; later ones are its own ("get_library_docs" on a server named docs).
  const drop = new Set([...words(tool.server), ...(tool.family ?? [])]);
  // A word naming the server elsewhere in the name ("get_sentry_issue", "mcp_cosmos_query" on cosmosdb) says
  // whose tool it is; "tool", "api" and "mcp" say nothing ("directions_tool"); "one" says how many
  // ("insert-one"), not what.
  const serverWords = words(tool.server);
  const namesServer = (w: string): boolean => serverWords.some((x) => x === w || PRODUCT_SUFFIX.some((f) => x === w + f));
  const one = words(tool.name).some((w) => ONE.has(w));
  const ws = words(tool.name).filter((w) => !NAME_NOISE.has(w) && !ONE.has(w));
  while (ws.length > 1 && drop.has(ws[0])) ws.shift();
  if (ws.length === 1 && drop.has(ws[0])) ws.shift();
  // Its last word is what it acts on even so ("get_library_docs" on a server named docs).
  for (let i = ws.length - 2; i >= 0; i--) if (namesServer(ws[i])) ws.splice(i, 1);
  // The name's verb: its first word the verb table or WordNet knows as one ("push_files", not "files").
  // A name's verb is a base form: "files" and "checks" in a name are nouns ("push_files", "monitor_checks").
  const base = (w: string): boolean => verbOf(w) !== undefined && !(/[^s]s$/.test(w) && verbOf(w.slice(0, -1)) !== undefined);
  const at = ws.findIndex((w) => base(w) || STOP.has(w) || START.has(w) || unknownVerb(w));
  const verb = at >= 0 ? ws[at] : undefined;
  const actions = new Set<string>();
  // Starting and stopping anywhere in the name ("interact_stop", "stop_search") are actions of their own.
  const starts = ws.find((w) => START.has(w) || STOP.has(w));
  if (starts) actions.add(START.has(starts) ? 'start' : 'stop');
  else if (verb) for (const a of verbOf(verb) ?? (READING.has(verb) ? ['read'] : [`v:${stem(verb)}`])) actions.add(a);
  // A name without a verb ("directory_tree", "fetch" on the fetch server) does what its description says first.
  if (actions.size === 0) for (const a of toolActions('', tool.description)) actions.add(a);
  if (actions.size === 0 && tool.annotations?.readOnlyHint === true) actions.add('read');
  // The object follows the verb ("read_text_file"; "create_or_update_file" past its second verb); in a
  // name whose verb comes last ("web_search", "monitor_list") it precedes it. Words after "with" add
  // detail, not another object ("list_directory_with_sizes").
  let after = at >= 0 ? ws.slice(at + 1) : ws;
  while ((after[0] === 'or' || after[0] === 'and') && after[1] !== undefined && verbOf(after[1])) after = after.slice(2);
  // A read by a filter searches; a read of "…_list" lists (./read-forms.ts).
  const form = readByName(actions, after);
  if (form) { actions.clear(); actions.add(form.action); after = form.object; }
  const before = at > 0 ? ws.slice(0, at) : [];
  const object = new Set<string>();
  let last: string | undefined;
  let place: string[] = [];
  const take = (list: string[]): void => {
    for (const [i, w] of list.entries()) {
      if (OPTION.has(w)) break;
      // Where it acts ("generate_image_from_images", "move_cards_to_collection") must be said by the other too.
      if (OBJECT_END.has(w)) { place = list.slice(i + 1).filter((x) => x.length > 1 && !NOISE.has(x) && !STOPWORDS.has(x) && !OPTION.has(x)); break; }
      if (START.has(w) || STOP.has(w) || MANY.has(w)) continue;
      if (w.length > 1 && !NOISE.has(w) && !/^\d+$/.test(w)) { object.add(stem(w)); last = w; }
    }
  };
  // "add_to_favorites": a name whose verb is followed by a preposition acts on what follows it.
  take(OBJECT_END.has(after[0] ?? '') && !OPTION.has(after[0]) ? after.slice(1) : after);
  // Words before the verb of a name whose object follows it say whose or which ("atlas-list-projects"
  // lists Atlas projects, not any product's).
  const qualifier = object.size > 0 ? before.filter((w) => w.length > 1 && !NOISE.has(w) && !/^\d+$/.test(w)).map(stem) : [];
  if (object.size === 0) take(before);
  // A name that says only its verb ("qase_get", "search" on a Drive server) acts on what its description's
  // first verb does, by that phrase's head noun ("Fetch one known record by type" → record; "Search for files
  // in Google Drive" → file), so a generic getter is no stand-in for every specific one.
  if (object.size === 0) {
    const first = words(tool.description.split(/(?<=[.!?])\s+|\n+/)[0] ?? '');
    // Only a description that opens with its verb says what that verb acts on ("Crawl a website starting from a URL" does not start with one the table knows).
    // and only when that verb does the name's action ("Starts a crawl job" is not what `firecrawl_crawl`'s crawl acts on).
    const opening = verbOf(first[0] ?? '');
    const at = opening !== undefined && (verb === undefined || opening.some((a) => actions.has(a))) ? 0 : -1;
    let head: string | undefined;
    for (const w of at < 0 ? [] : first.slice(at + 1)) {
      if (OPTION.has(w) || (OBJECT_END.has(w) && head !== undefined)) break;
      if (OBJECT_END.has(w) || w.length < 2 || STOPWORDS.has(w) || NOISE.has(w) || drop.has(w) || /^\d+$/.test(w)) continue;
      head = w;
    }
    if (head !== undefined) { object.add(stem(head)); last = head; }
  }
  // What the tool says it does: later sentences add caveats ("only works within allowed directories").
  const said = tool.description.split(/(?<=[.!?])\s+|\n+/).filter((x) => x.trim()).slice(0, 2).join(' ');
  const text = `${tool.name.replace(/[_\-.]+/g, ' ')} ${said}`;
  const reach = new Set<string>();
  for (const w of words(text)) {
    reach.add(stem(w));
    for (const t of synonyms.lexiconTerms(w)) reach.add(t);
  }
  for (const p of synonyms.phrases(text)) for (const r of p.related) reach.add(r.term);
  const paramStems = (list: string[]): Set<string> => new Set(list.flatMap((p) => words(p.replace(/([a-z])([A-Z])/g, '$1 $2')).map(stem)));
  // "monitor_checks" lists them, "monitor_check" gets one; "approve_all" many, "get_issue_by_id" one, and so
  // does a plural whose description finds it by one ID. A read of a plural needing the ones it reads is a
  // batch, neither one nor a listing; one opening "Get all …" lists (./read-forms.ts).
  const byId = /\bby ?id\b/.test(words(tool.name).join(' ')) || opensByOneId(tool.description);
  const counted = ws.some((w) => MANY.has(w)) ? true : byId || one ? false : last === undefined ? undefined : /[^s]s$/.test(last);
  const plural = counted === true && readsBatch(actions, tool.required ?? []) ? undefined : counted;
  if (plural === true && readsAll(actions, tool.description)) { actions.clear(); actions.add('list'); }
  // A verb the table knows stands for its action ("scrape" and "extract" both read); another is itself.
  const known = verb !== undefined && (verbOf(verb) !== undefined || READING.has(verb));
  return { qualifier, ids: new Set((tool.required ?? []).filter(isReference).map(referenceKey)), refs: new Set(tool.params.filter(isReference).map(referenceKey)), actions, many: ws.some((w) => MANY.has(w)), verb: verb === undefined || known ? undefined : stem(verb), head: last === undefined ? undefined : stem(last), place: place.map(stem), object, plural, reach, params: paramStems(tool.params), required: (tool.required ?? []).map((p) => paramStems([p])) };
}

/**
 * Words that start most of a server's tool names ("browser_" of a browser server): a family, not an object.
 * @example
 *   familyWords(['browser_click', 'browser_hover', 'browser_navigate']); // Set { 'browser' }
 */
export function familyWords(names: string[]): Set<string> {
  const counts = new Map<string, number>();
  for (const n of names) {
    const first = words(n)[0];
    // "create" starting most of a server's names is its verb, not a family.
    if (first && verbOf(first) === undefined && !unknownVerb(first)) counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, c]) => names.length >= 3 && c * 2 > names.length).map(([w]) => w));
}

const paramWords = (p: string): string[] => words(p.replace(/([a-z])([A-Z])/g, '$1 $2'));
/** A parameter naming a reference to one thing: its last word is "id" (messageId, thread_id). */
const isReference = (p: string): boolean => paramWords(p).at(-1) === 'id' && paramWords(p).length > 1;
const referenceKey = (p: string): string => paramWords(p).map(stem).join(' ');

/**
 * `b`'s job in `a`'s words: where `b`'s product calls `a`'s central object by its own word (Plane's issue for
 * Todoist's task, ./central-objects.ts), that word is `a`'s.
 */
function inWordsOf(b: Job, pairs: ReadonlyArray<readonly [string, string]>): Job {
  const words = new Map(pairs.map(([word, alias]) => [alias, word]));
  const swap = (w: string): string => words.get(w) ?? w;
  const ref = (r: string): string => r.split(' ').map(swap).join(' ');
  const reach = new Set(b.reach);
  for (const [alias, word] of words) if (b.reach.has(alias)) reach.add(word);
  return {
    ...b, head: b.head === undefined ? undefined : swap(b.head), object: new Set([...b.object].map(swap)), qualifier: b.qualifier.map(swap),
    reach, ids: new Set([...b.ids].map(ref)), refs: new Set([...b.refs].map(ref)),
  };
}

/** Words two servers' products use for one thing, each pair [a's word, b's word]. */
export interface OtherWords {
  /** Their central objects (./central-objects.ts): Todoist's task, Plane's issue. */
  central?: readonly [string, string];
  /** Other things the software lexicon calls by one name: Todoist's label, Asana's tag. */
  kin?: ReadonlyArray<readonly [string, string]>;
}

/**
 * Why two jobs differ, or undefined when they are the same job; `sameKind`: their servers differ but are of
 * one kind; `counterparts`: `a`'s and `b`'s servers' central objects, two words for one thing.
 */
export function jobDifference(a: Job, other: Job, sameKind = false, names: OtherWords = {}): 'action' | 'object' | undefined {
  const counterparts = names.central;
  const pairs = [...counterparts === undefined ? [] : [counterparts], ...names.kin ?? []];
  const b = pairs.length === 0 ? other : inWordsOf(other, pairs);
  const shared = [...a.actions].some((x) => b.actions.has(x));
  // A tool whose action cannot be read at all is compared on its object alone, and needs one.
  if (!shared && a.actions.size > 0 && b.actions.size > 0) return 'action';
  // A name with a verb of its own ("reverse_geocode") does something a name without one ("geocode") does not.
  // A light verb adds nothing: "take_screenshot" is "screenshot".
  const own = (x: Job): boolean => [...x.actions].some((v) => v.startsWith('v:') && !LIGHT.has(v.slice(2)));
  if ((a.actions.size === 0 && own(b)) || (b.actions.size === 0 && own(a))) return 'action';
  if ((a.actions.size === 0 || b.actions.size === 0) && (a.object.size === 0 || b.object.size === 0)) return 'object';
  if (a.actions.has('start') !== b.actions.has('start') || a.actions.has('stop') !== b.actions.has('stop')) return 'action';
  // Two names that are only verbs ("tavily_search", "firecrawl_search") do the same when the verb is the same
  // ("force_terminate" and "interact_stop" both stop, but not the same thing).
  if (a.object.size === 0 && b.object.size === 0 && (a.verb !== undefined || b.verb !== undefined) && a.verb !== b.verb) return 'object';
  // A compound is a kind of its last word: release pipelines are pipelines, not releases.
  if (a.head !== undefined && b.head !== undefined && a.head !== b.head) return 'object';
  // Where one acts must be named by the other: an image made from images is not an image made from a prompt.
  const placed = (x: string, y: Job): boolean => y.place.includes(x) || (sameKind && y.params.has(x));
  for (const x of a.place) if (!placed(x, b)) return 'object';
  for (const x of b.place) if (!placed(x, a)) return 'object';
  // All at once is not one ("approve_all" and "approve"); a batch of what the other lists is ("batch_delete_emails", "delete_emails").
  if (a.many !== b.many && (a.many ? b : a).plural !== true) return 'object';
  // Each object word of one is said by the other ("text" of read_text_file is in read_file's "as text").
  for (const x of a.qualifier) if (!b.reach.has(x)) return 'object';
  for (const x of b.qualifier) if (!a.reach.has(x)) return 'object';
  // A product's central object qualifying another (Plane's "issue comment") is what the other product's
  // comments belong to anyway (Todoist's, to its task): it need not say so.
  // A tool that needs one of each (an issue's and a label's id: `removeIssueLabel`) links two things that
  // exist, which the other's making or removing of the thing itself does not.
  const implied = (x: Job, w: string): boolean => counterparts !== undefined && w === counterparts[0] && w !== x.head && !x.ids.has(`${x.head} id`);
  for (const x of a.object) if (!b.reach.has(x) && !implied(a, x)) return 'object';
  for (const x of b.object) if (!a.reach.has(x) && !implied(b, x)) return 'object';
  // Reading, one is not many: "get_task" answers one, "get_tasks" lists them. Making, changing or removing,
  // the number says single or batch of the same thing ("create_tasks" takes one or more): either stands in.
  const writing = WRITING.some((w) => a.actions.has(w) && b.actions.has(w));
  if (!writing && a.plural !== undefined && b.plural !== undefined && a.plural !== b.plural) return 'object';
  // A tool that needs a place the other knows nothing of (the owner and repo of a GitHub file, next to a
  // local file's path) acts on another kind of object; two tools that each need their own (a GitHub repo,
  // a GitLab project) do the same job on different backends, and so do two tools of servers of one kind
  // (`sameKind`, ./server-kinds.ts) where one names a parent the other's product leaves implicit (Teams'
  // team of a channel, a Slack workspace's).
  const extra = (x: Job, y: Job): boolean => x.required.some((p) => ![...p].some((w) => y.params.has(w)));
  if (!sameKind && extra(a, b) !== extra(b, a)) return 'object';
  // Of two tools that make or send something, one that needs a reference to one of what it acts on (a
  // reply's messageId) answers one that exists; one that takes no such reference sends a new one.
  const needs = (x: Job, y: Job): boolean => [...x.ids].some((r) => x.head !== undefined && r === `${x.head} id` && !y.refs.has(r));
  if (MAKING.some((m) => a.actions.has(m) && b.actions.has(m)) && needs(a, b) !== needs(b, a)) return 'object';
  return undefined;
}

/**
 * Jobs of a catalog's tools, read once each.
 * @example
 *   const jobs = new JobReader(); jobs.differ(readFile, readTextFile); // undefined
 */
export class JobReader {
  private readonly synonyms: Synonyms;
  private readonly memo = new Map<string, Job>();
  private readonly byObject = new WeakMap<JobTool, Job>();

  constructor(synonyms: Synonyms = sharedSynonyms()) {
    this.synonyms = synonyms;
  }

  job(tool: JobTool): Job {
    // The same tool object asks again on every failed call: known by identity before any key is built.
    const known = this.byObject.get(tool);
    if (known) return known;
    const key = `${tool.server}\u0000${tool.name}\u0000${tool.description}\u0000${tool.params.join(',')}\u0000${(tool.required ?? []).join(',')}\u0000${[...tool.family ?? []].join(',')}`;
    let job = this.memo.get(key);
    if (!job) {
      if (this.memo.size >= 10_000) this.memo.clear();
      job = jobOf(tool, this.synonyms);
      this.memo.set(key, job);
    }
    this.byObject.set(tool, job);
    return job;
  }

  /** Why `a` and `b` are not the same job ('action' or 'object'), or undefined when they are. */
  differ(a: JobTool, b: JobTool, sameKind = false, names: OtherWords = {}): 'action' | 'object' | undefined {
    return jobDifference(this.job(a), this.job(b), sameKind, names);
  }
}
