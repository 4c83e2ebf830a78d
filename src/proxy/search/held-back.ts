/**
 * The guard on destructive tools: what a tool acts on (its name's direct object, where, what it takes
 * things from) and whether a destructive tool is held back from leading a query that does not ask for
 * its action on its object (refused verbs, another server named, detaching, "to all" tools).
 */
import { stem, STOPWORDS, words } from '../../lexicon/index.ts';
import { actionFit, refusedActions, withoutRequestFrame, type Action } from './actions.ts';
import { speaksOfAll, toEveryone } from './clauses.ts';
import { DETERMINERS, OBJECT_END, verbOf } from './verbs.ts';

/** Name words that say nothing about what a tool acts on. */
const GENERIC = new Set(['api', 'mcp', 'tool', 'tools', 'server', 'many', 'all', 'multiple', 'batch', 'bulk', 'one', 'single', 'by', 'id']);

/** What a tool acts on (its name's direct object) and where (the words after a preposition), as stems. */
export interface ToolTarget {
  what: ReadonlySet<string>;
  where: ReadonlySet<string>;
  /** What it takes things from ("Remove a label from an issue" → issue), for detaching queries. */
  source?: ReadonlySet<string>;
  /** Its server. */
  server?: string;
  /** Whether it acts on everyone at once ("Broadcast a message to all users who follow you"). */
  all?: boolean;
}

/** What a query names, as stems: what its imperative acts on (the whole query without one), and all its terms. */
export interface QueryTarget {
  what: ReadonlySet<string>;
  all: ReadonlySet<string>;
  /** What a detaching query takes something off ("remove the label from these emails" → email, with related words). */
  from?: ReadonlySet<string>;
  /** Where a removal query takes anything from ("remove the sales tile from dashboard 2" → dashboard, with related words). */
  source?: ReadonlySet<string>;
  /** The servers the query names ("in Linear"). */
  servers?: ReadonlySet<string>;
  /** Whether the query detaches something (a label, a person, a word) rather than deleting it. */
  detached?: boolean;
  /** Actions the query explicitly refuses ("without deleting them"): no tool doing them leads. */
  refused?: ReadonlySet<Action>;
  /** Whether the query speaks of all of something ("all our followers", "every branch", "everyone"). */
  universal?: boolean;
}

/**
 * What a tool acts on, from its name: the stems of the words after its verb up to a preposition,
 * and where, the words after that (words before the verb name the tool's family: `kubectl_delete`,
 * `git_clean`), less the server's name and generic words ("delete_repository" → repositori;
 * "exec_in_pod" → where: pod; "jira_delete" → none).
 * @example
 *   nameObjects('delete_repository', 'github').what; // Set { 'repositori' }
 */
export function nameObjects(name: string, server = '', description = ''): ToolTarget {
  const own = new Set(words(server));
  const what = new Set<string>();
  const where = new Set<string>();
  const ws = words(name);
  const verb = ws.findIndex((w) => w === 'open' || verbOf(w) !== undefined);
  let into = what;
  for (const w of ws.slice(verb + 1)) {
    if (OBJECT_END.has(w)) { into = where; continue; }
    if (w.length < 2 || own.has(w) || GENERIC.has(w) || STOPWORDS.has(w)) continue;
    into.add(stem(w));
  }
  // A name with no object (`delete-many`, `git_clean`) acts on what its description's first verb does
  // ("Removes all documents that match…" → document), unless that is anything ("Delete Jira resources").
  if (what.size === 0 && where.size === 0 && description) {
    const first = words((description.split(/(?<=[.!?])\s|\n/)[0] ?? '').replace(/\bone or (?:more|many)\b/gi, ''));
    const at = first.findIndex((w) => verbOf(w) !== undefined);
    const object: string[] = [];
    for (const w of at < 0 ? [] : first.slice(at + 1)) {
      if (OBJECT_END.has(w) || object.length === 3) break;
      if (w.length < 2 || own.has(w) || GENERIC.has(w) || STOPWORDS.has(w) || DETERMINERS.has(w)) continue;
      object.push(w);
    }
    if (!object.some((w) => ANYTHING.has(w))) for (const w of object) what.add(stem(w));
  }
  return { what, where, ...(toEveryone(description.split(/(?<=[.!?])\s|\n/)[0] ?? '') ? { all: true } : {}) };
}

/** Objects that stand for anything a tool could act on. */
const ANYTHING = new Set(['resource', 'resources', 'item', 'items', 'object', 'objects', 'data', 'entry', 'entries', 'thing', 'things']);

/**
 * Whether a destructive tool is held back for this query: the query does not ask for its action.
 * It asks when the actions match and the query names what the tool acts on (a word of its name's
 * direct object, or a word related to one, among what the query's imperative acts on: "add a
 * paragraph to the page" asks for a create, but not `create_page`'s), or, for a name without a
 * direct object, where it acts anywhere in the query (`exec_in_pod` needs a pod); for a tool of
 * no known action, when the query's first word is in its name ("click the submit button" for a
 * browser_click the server annotates as destructive).
 * @example
 *   heldBack('open a Jira ticket', queryActions('open a Jira ticket'), 'jira_delete', new Set(['delete']), true); // true
 */
export function heldBack(query: string, asked: ReadonlySet<Action>, toolName: string, actions: ReadonlySet<Action>, destructive: boolean, named?: QueryTarget, target?: ToolTarget): boolean {
  const all = new Set(words(query).map(stem));
  return heldBackFor(words(withoutRequestFrame(query))[0], asked, new Set(words(toolName)), actions, destructive, target ?? nameObjects(toolName), named ?? { what: all, all, refused: refusedActions(query), universal: speaksOfAll(query) });
}

const NOTHING: ReadonlySet<string> = new Set();
const meets = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => {
  for (const x of a) if (b.has(x)) return true;
  return false;
};

/** heldBack with the query's first word, its terms and the tool's name words and target worked out once (the index's hot loop). */
export function heldBackFor(lead: string | undefined, asked: ReadonlySet<Action>, nameWords: ReadonlySet<string>, actions: ReadonlySet<Action>, destructive: boolean, target: ToolTarget, named: QueryTarget): boolean {
  if (!destructive) return false;
  // "send user U123 a text": a tool that sends to all users is not what was asked; "send all our followers …" asks it.
  if (target.all && !named.universal) return true;
  // "hide the columns without deleting them": no destructive tool leads once a delete is refused, unless
  // the imperative asks for it too ("remove Bob from the team without deleting his account").
  if (named.refused && named.refused.size > 0) {
    const refused = (a: Action): boolean => named.refused?.has(a) === true && !asked.has(a);
    // A refused delete holds back every destructive tool but those doing what was asked instead
    // ("unpublish the action, no deleting" still lets the unpublishing tool lead).
    if ([...actions].some(refused) || (refused('delete') && actionFit(asked, actions) !== 'match')) return true;
  }
  // "update the customer in Linear": another server's destructive tool is not what was asked.
  if (named.servers && named.servers.size > 0 && target.server !== undefined && !named.servers.has(target.server)) return true;
  // "remove the label from these emails" edits the emails: a tool that deletes labels outright, or
  // takes them off something else (issues), is not asked for.
  if (named.from && !meets(target.source ?? NOTHING, named.from)) return true;
  // "remove the sales tile from dashboard 2": a tool that takes things from elsewhere ("Delete an item
  // from your vault") is not asked for, unless the place named is the tool's own server ("from Gmail").
  if (named.source && target.source !== undefined && target.source.size > 0 && !meets(target.source, named.source) &&
    !words(target.server ?? '').some((w) => named.source?.has(stem(w)))) return true;
  // Taken off something unnamed ("take the urgent label off ENG-5"): a tool that takes things off nothing deletes them outright.
  if (named.detached && (target.source === undefined || target.source.size === 0)) return true;
  if (actionFit(asked, actions) === 'match') {
    if (target.what.size > 0) return !meets(target.what, named.what);
    return target.where.size > 0 && !meets(target.where, named.all);
  }
  if (actions.size > 0) return true;
  return lead === undefined || !nameWords.has(lead);
}
