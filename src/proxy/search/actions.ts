/**
 * What a query asks to do and what a tool does (the actions of ./verbs.ts), from the verbs of the
 * query's main clause and of the tool's name (else its description's first verb), what the query
 * refuses ("without deleting them"), and whether the tool is destructive (MCP `destructiveHint`, or a
 * deleting or archiving verb when unannotated). The guard that reads these is ./held-back.ts.
 */
import { IRREGULAR_FORMS, STOPWORDS, words } from '../../lexicon/index.ts';
import { asksWhatIs, coordinatedWithRefused, countedPhraseEnd, futureAt, intendsLater, makesComplement, refusesAll, withoutQuotedText } from './clauses.ts';
import { DETERMINERS, HTTP_METHODS, OBJECT_END, OPENED, PHRASAL, unknownVerb, verbOf, type Action } from './verbs.ts';

export type { Action } from './verbs.ts';

/** Tool annotations as MCP defines them (only the hints search reads). */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

/** Question words that stand before a noun ("which files", "whose tasks"). */
const WH_DETERMINERS = new Set(['which', 'what', 'whose']);
/** Words that negate the verb after them (one or two words on: "don't ever delete", "without first deleting"). */
const NEGATIONS = new Set(['don\'t', 'dont', 'not', 'never', 'no', 'neither', 'without', 'avoid']);
/** Two-word phrases that negate the verb after them: "rather than deleting", "instead of removing". */
const NEGATING_PAIRS = new Set(['rather than', 'instead of', 'never mind', 'no need', 'refrain from']);
/** Words between a negating pair and its verb: "no need to delete", "rather than just deleting". */
const LINKING = new Set(['to', 'just', 'simply', 'first', 'even', 'actually']);
/** Words before "to" + a verb that make it a choice being weighed, not asked for ("which ones to remove"). */
const DELIBERATING = new Set(['which', 'whether', 'what']);
/** Modals after which a verb tells what could happen ("what would git clean remove"); "would you …" is a request. */
const MODALS = new Set(['would', 'could', 'might', 'may', 'will', 'should', 'can']);
/** Auxiliaries of a question about the past ("did I cancel", "has Bob deleted"). */
const PAST = new Set(['did', 'didn\'t', 'have', 'has', 'had']);
/** Words after which a verb form describes rather than asks ("pods that are running"). */
const DESCRIBING = new Set(['is', 'are', 'was', 'were', 'been', 'being', 'be', 'currently', 'still', 'last', 'recently']);

/** Whether a word is a verb: one the table knows, or one WordNet knows as a verb. */
const isVerb = (w: string): boolean => verbOf(w) !== undefined || unknownVerb(w);

/** Read, list and search all only look: one does not count against another. */
const LOOKING: ReadonlySet<Action> = new Set(['read', 'list', 'search']);

/** A polite or indirect frame before an imperative: "please", "could you", "I want to", "just". */
const REQUEST_FRAME = /^\s*(?:(?:please|kindly|just|now|then|so|ok(?:ay)?|hey|hi|also|and)\b[\s,]*|(?:can|could|would|will) you(?: please)?\b[\s,]*|i(?:'d| would)? (?:want|need|like) (?:you )?to\b\s*|help me\b\s*)+/i;

/**
 * A leading subordinate or refusing clause up to its comma: "before I remove anyone, show me …" and
 * "don't archive it, delete it" ask for what follows it.
 */
const LEADING_CLAUSE = /^\s*(?:before|after|once|when|whenever|if|until|unless|while|since|as soon as|don'?t|do not|never|no need to|without|instead of|rather than)\b[^,;]*[,;]\s*/i;

/**
 * The query's main clause without a polite or indirect frame before its imperative, so "please remove
 * the label", "could you take Bob off the card" and "before I remove anyone, show me who has access"
 * are read as "remove the label", "take Bob off the card" and "show me who has access".
 * @example
 *   withoutRequestFrame('Could you please delete the file?'); // 'delete the file?'
 */
export function withoutRequestFrame(query: string): string {
  let out = query;
  for (let before = ''; before !== out;) {
    before = out;
    out = out.replace(REQUEST_FRAME, '').replace(LEADING_CLAUSE, '');
  }
  return out;
}

/** Verbs that delete or send, but move something when a place follows ("drop the slide to the end"). */
const MOVING = new Set(['drop', 'send', 'push', 'throw']);
/** Prepositions of a destination. */
const DESTINATION = new Set(['to', 'into', 'onto', 'below', 'above', 'after', 'before', 'behind', 'under', 'beneath', 'toward', 'towards', 'ahead']);
/** Places in an order: sending something there moves it ("send the slide to the back"). */
const POSITIONS = new Set(['top', 'bottom', 'end', 'front', 'back', 'start', 'beginning', 'head', 'tail', 'first', 'last', 'position', 'left', 'right', 'middle', 'next', 'previous']);
/** Places that throw things away: dropping something there still deletes it. */
const DISPOSAL = new Set(['trash', 'bin', 'garbage', 'recycle', 'rubbish', 'wastebasket']);

/**
 * Where the verb at `i` puts its object: 'move' to a place ("drop the agenda slide to the end", "push the
 * card below Done"), 'delete' into a bin ("throw the old logs into the bin"), else undefined ("drop the
 * users table"; "drop the table to free space" says why). "send" moves only to a position ("send the
 * slide to the back"); "send the report to Bob" sends it.
 */
function putsTo(ws: string[], i: number): Action | undefined {
  for (let j = i + 1; j < Math.min(ws.length - 1, i + 8); j++) {
    if (!DESTINATION.has(ws[j])) continue;
    let k = j + 1;
    while (k < ws.length && DETERMINERS.has(ws[k])) k++;
    const place = ws[k];
    if (place === undefined) return undefined;
    if (DISPOSAL.has(place)) return 'delete';
    if (ws[i] === 'send') return POSITIONS.has(place) ? 'move' : undefined;
    // "to" before a bare verb says why ("drop the cache to free memory").
    const moves = ws[j] !== 'to' || k > j + 1 || POSITIONS.has(place) || /^\d/.test(place) || !(verbOf(place) || unknownVerb(place));
    return moves ? 'move' : undefined;
  }
  return undefined;
}

/**
 * The actions a query asks for, from its verbs.
 * @example
 *   queryActions('open a Jira ticket for the login bug'); // Set { 'create' }
 */
export function queryActions(query: string, options: { methods?: boolean } = {}): Set<Action> {
  return readActions(query, options).asked;
}

/**
 * The actions a query explicitly refuses: "hide the columns without deleting them", "archive it,
 * don't delete it", "reschedule rather than deleting the event" refuse a delete, so no tool that
 * deletes may lead.
 * @example
 *   refusedActions('archive the product, do not delete it'); // Set { 'delete' }
 */
export function refusedActions(query: string): Set<Action> {
  return readActions(query, { methods: false }).refused;
}

/** The actions the word at `i` asks for, read in its context. */
function actionsAt(ws: string[], i: number): Action[] {
  const w = ws[i];
  if (w === 'open') return [ws.slice(i + 1, i + 4).some((x) => OPENED.has(x)) ? 'create' : 'read'];
  // "tell me" asks to read; "tell the team" to send.
  if (w === 'tell') return [ws[i + 1] === 'me' || ws[i + 1] === 'us' ? 'read' : 'send'];
  // "make rich menu rm-2 the default one", "make the repo public": a setting, not something new.
  if ((w === 'make' || w === 'makes' || w === 'making') && makesComplement(ws, i)) return ['update'];
  // "drop a comment", "drop me a line": dropping something new off is posting it, not deleting.
  if (w === 'drop' && ['a', 'an', 'me', 'us', 'them', 'him', 'her'].includes(ws[i + 1] ?? '')) return ['create', 'send'];
  const put = MOVING.has(w) ? putsTo(ws, i) : undefined;
  if (put) return [put];
  // "empty the trash" deletes what is in it; "an empty list" (as tool descriptions say) is an adjective.
  if (w === 'empty') return i === 0 || DETERMINERS.has(ws[i + 1] ?? '') ? ['delete'] : [];
  // A phrasal verb means its phrase, its particle next or a few words on: "take Bob off the card".
  const phrasal = PHRASAL[w];
  if (phrasal) for (const x of ws.slice(i + 1, i + 5)) if (phrasal[x]) return phrasal[x];
  return verbOf(w) ?? [];
}

/**
 * "don't delete anything", "without deleting them", "rather than deleting", "no need to remove": a negated verb asks nothing.
 * A refusal extends over the verbs coordinated with the refused one: "don't recreate or delete it",
 * "neither leave nor delete the room".
 */
function negatedAt(ws: string[], i: number): boolean {
  const pair = (j: number): boolean => j >= 0 && NEGATING_PAIRS.has(`${ws[j]} ${ws[j + 1]}`);
  return NEGATIONS.has(ws[i - 1] ?? '') || NEGATIONS.has(ws[i - 2] ?? '') ||
    pair(i - 2) || (pair(i - 3) && LINKING.has(ws[i - 1])) || ws[i + 1] === 'nothing' || ws[i + 1] === 'none' ||
    coordinatedWithRefused(ws, i, isVerb, negatedAt);
}


/**
 * Readings of the latest queries: one search reads its query four or five times over (its ranking, the
 * detachment, the refusals, the guard), and the reading is derived from the text alone. Few and short
 * entries, so memory stays bounded; each caller gets sets of its own (some add to them).
 */
const readings = new Map<string, { asked: ReadonlySet<Action>; refused: ReadonlySet<Action> }>();
const MAX_READINGS = 64;
const MAX_READ_CHARS = 4096;

function readActions(query: string, options: { methods?: boolean }): { asked: Set<Action>; refused: Set<Action> } {
  const key = `${options.methods === false ? '-' : '+'}${query}`;
  let read = readings.get(key);
  if (read === undefined) {
    read = readQuery(query, options);
    if (query.length <= MAX_READ_CHARS) {
      if (readings.size >= MAX_READINGS) readings.clear();
      readings.set(key, read);
    }
  }
  return { asked: new Set(read.asked), refused: new Set(read.refused) };
}

function readQuery(query: string, options: { methods?: boolean }): { asked: Set<Action>; refused: Set<Action> } {
  // Each sentence asks on its own: "which ones should I remove? remove the oldest" asks for the delete
  // its second sentence gives, whatever the question's modal does to the first.
  // Quoted content (a message's text) asks nothing.
  const text = withoutQuotedText(query);
  const asked = new Set<Action>();
  const refused = new Set<Action>();
  for (const sentence of text.split(/(?<=[.?!;])\s+(?=\S)/)) {
    const read = readSentence(sentence, options);
    // "I want to clean up the unused ones afterwards" says what is coming, not what to do now.
    if (!intendsLater(sentence)) for (const a of read.asked) asked.add(a);
    for (const a of read.refused) refused.add(a);
  }
  // "…, but don't delete anything yet" refuses the delete outright, whatever else asks for it
  // ("I want to clean up the unused ones afterwards").
  for (const a of refusedOutright(text)) asked.delete(a);
  return { asked, refused };
}

/** Where a clause ends: punctuation or a conjunction ("…, but don't delete anything yet"). */
const CLAUSES = /[,;:.!?]+|\b(?:but|and|or|until|unless|because|so)\b/i;
/** A number standing on its own ("4 July 1976", "30 cm"): a question about it computes. */
const A_NUMBER = /(?:^|\s)\d[\d.,:/]*(?=$|[\s?!.,])/;

/** Words that refuse the verb after them outright ("rather than" and "instead of" weigh it against another). */
const REFUSING = new Set(['don\'t', 'dont', 'not', 'never', 'no', 'neither', 'without']);

/** Actions refused of everything, clause by clause: "don't delete anything yet", "never remove any of them", "do not delete". */
function refusedOutright(text: string): Set<Action> {
  const out = new Set<Action>();
  for (const clause of text.split(CLAUSES)) {
    const ws = words(clause);
    // A past form describes ("the cache is not cleared"): only a verb refused as an act refuses it.
    const refusing = (v: string[], i: number): boolean => !v[i].endsWith('ed') &&
      (REFUSING.has(v[i - 1] ?? '') || REFUSING.has(v[i - 2] ?? '') || v[i + 1] === 'nothing' || v[i + 1] === 'none' || coordinatedWithRefused(v, i, isVerb, refusing));
    ws.forEach((_, i) => {
      if (refusing(ws, i) && refusesAll(ws.slice(i + 1))) for (const a of actionsAt(ws, i)) out.add(a);
    });
  }
  return out;
}

function readSentence(query: string, options: { methods?: boolean }): { asked: Set<Action>; refused: Set<Action> } {
  const ws = words(withoutRequestFrame(query));
  const negated = (i: number): boolean => negatedAt(ws, i);
  // An HTTP method named in capitals asks for its action ("send an HTTP DELETE request").
  // It is a value, not the imperative: it counts for ranking, not for letting a destructive tool lead.
  const methods = options.methods === false ? [] : [...query.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => HTTP_METHODS[m[1]]);
  // Refusals are read from the whole query: "without deleting anything, list the branches" refuses a delete.
  const whole = words(query);
  const refused = new Set<Action>();
  whole.forEach((_, i) => { if (negatedAt(whole, i)) for (const a of actionsAt(whole, i)) refused.add(a); });
  const answer = (asked: Iterable<Action>): { asked: Set<Action>; refused: Set<Action> } => ({ asked: new Set(asked), refused });
  // An imperative ("show the drop-off", "delete X and list Y") asks for its leading verbs only.
  const first = ws.length && !negated(0) ? actionsAt(ws, 0) : [];
  // "put a new task on the board", "open a new tab": whatever the verb, a new object is created.
  if (first.length && ws.slice(1, 4).includes('new')) return answer(['create']);
  // "add 3 and 4", "multiply 6 by 7": an imperative on numbers is arithmetic, not creating or changing anything.
  if (first.length && directObject(query)?.every((w) => /^\d+(?:\.\d+)?$/.test(w))) return answer(methods);
  // An imperative whose verb the table does not know ("hide columns H to K … without deleting them") asks
  // nothing the table can name: later verbs count only when joined to it by "and" or "or".
  if (first.length || unknownVerb(ws[0])) {
    const out = new Set<Action>([...first, ...methods]);
    ws.forEach((w, i) => { if (i > 0 && (ws[i - 1] === 'and' || ws[i - 1] === 'or') && !negated(i)) for (const a of actionsAt(ws, i)) out.add(a); });
    return answer(out);
  }
  const out = new Set<Action>(methods);
  // "how many more sends do we have left": the counted words of a count question are nouns.
  const counted = countedPhraseEnd(ws);
  // "what size and region is db-old": a wh-question about what something is reads it; one about a
  // value ("what day was 4 July 1976") computes, and a count question may count anything.
  if (counted === 0 && !A_NUMBER.test(query) && asksWhatIs(ws, (w) => verbOf(w) !== undefined)) out.add('read');
  ws.forEach((_, i) => {
    if (i < counted) return;
    // "the cluster we are about to drop": the near future tells what will happen, it asks nothing now.
    if (futureAt(ws, i)) return;
    // "pods that are running", and a participle a few words after "be": "why was the pod deleted".
    if (i > 0 && DESCRIBING.has(ws[i - 1])) return;
    if (ws[i].endsWith('ed')) for (let j = Math.max(0, i - 3); j < i; j++) if (DESCRIBING.has(ws[j])) return;
    if (negated(i)) return;
    // A choice still being made: "I'm deciding which ones to remove", "not sure whether to archive it".
    if (ws[i - 1] === 'to' && ws.slice(Math.max(0, i - 4), i - 1).some((w) => DELIBERATING.has(w))) return;
    // A past form tells what happened ("who deleted the release", "what if I deleted this repo"), and a
    // verb after a modal that is no request ("what git clean would remove"; "would you remove" asks).
    if (ws[i].endsWith('ed') || (IRREGULAR_FORMS.has(ws[i]) && IRREGULAR_FORMS.get(ws[i]) !== ws[i])) return;
    for (let j = 0; j < i; j++) if (MODALS.has(ws[j]) && ws[j + 1] !== 'you') return;
    // After a determiner a verb form is a noun or an adjective: "restore the deleted task".
    if (i > 0 && DETERMINERS.has(ws[i - 1])) return;
    // So after a question's determiner: "which files have I changed", "what tasks are due" ask about files and tasks.
    if (i > 0 && WH_DETERMINERS.has(ws[i - 1])) return;
    // A past or perfect question asks what happened, not for it to happen: "which events did I cancel".
    for (let j = Math.max(0, i - 3); j < i; j++) if (PAST.has(ws[j]) && ws[j + 1] !== 'to') return;
    for (const a of actionsAt(ws, i)) out.add(a);
  });
  return answer(out);
}

/**
 * The words an imperative acts on: after its leading verb, up to a preposition or clause
 * ("delete README.old from the repository" → readme, old), without determiners and stopwords;
 * undefined when the query does not start with a verb or its object is only a pronoun.
 * @example
 *   directObject('add a paragraph to the page'); // ['paragraph']
 */
export function directObject(query: string): string[] | undefined {
  // The object ends with its clause: "delete the event, do not notify attendees" acts on the event.
  const ws = words(withoutRequestFrame(query).split(/[,;](?:\s|$)/)[0]);
  if (ws.length === 0 || (ws[0] !== 'open' && ws[0] !== 'tell' && !PHRASAL[ws[0]] && !verbOf(ws[0]) && !unknownVerb(ws[0]))) return undefined;
  const out: string[] = [];
  for (const w of ws.slice(1)) {
    if (out.length === 0 && DETERMINERS.has(w)) continue;
    if (OBJECT_END.has(w)) break;
    if (!STOPWORDS.has(w)) out.push(w);
  }
  // "forget everything about Carol": a pronoun says nothing of the object; the whole query does.
  return out.length === 0 || out.every((w) => DETERMINERS.has(w)) ? undefined : out;
}

/**
 * The actions a tool performs: the first verb of its name, else of its description.
 * @example
 *   toolActions('jira_delete', 'Delete Jira resources.'); // Set { 'delete' }
 */
export function toolActions(name: string, description: string): Set<Action> {
  // The description is split only when the name has no verb.
  return new Set(firstVerb(words(name)) ?? firstVerb(words(description).slice(0, 12)) ?? []);
}

function firstVerb(ws: string[]): Action[] | undefined {
  for (const w of ws) {
    const found = verbOf(w);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether a tool may destroy data: annotated destructive (and not read-only), or deleting by name.
 * @example
 *   isDestructive(new Set(['delete']), {}); // true
 */
export function isDestructive(actions: ReadonlySet<Action>, hints: ToolHints | undefined): boolean {
  if (hints?.readOnlyHint === true) return false;
  return hints?.destructiveHint === true || actions.has('delete') || actions.has('archive');
}

/** How a tool's actions relate to a query's: same action, a clash (e.g. delete asked, read offered), or no telling. */
export function actionFit(asked: ReadonlySet<Action>, offered: ReadonlySet<Action>): 'match' | 'clash' | 'unknown' {
  if (asked.size === 0 || offered.size === 0) return 'unknown';
  for (const a of offered) if (asked.has(a) || (a === 'move' && asked.has('update'))) return 'match';
  // "move the note to the archive folder" is no edit of its text: no match, and no clash to rank it lower.
  if (asked.has('move') && offered.has('update')) return 'unknown';
  const looking = (set: ReadonlySet<Action>): boolean => [...set].every((a) => LOOKING.has(a));
  if (looking(asked) && looking(offered)) return 'unknown';
  return 'clash';
}

/**
 * Moves the best hit that is not held back to the front when the first one is held back: a
 * destructive tool never leads for a query that does not ask for its action.
 * @example
 *   leadWithAsked(hits, (h) => h.held);
 */
export function leadWithAsked<T>(hits: T[], held: (hit: T) => boolean): T[] {
  if (hits.length > 1 && held(hits[0])) {
    const lead = hits.findIndex((h) => !held(h));
    if (lead > 0) hits.unshift(...hits.splice(lead, 1));
  }
  return hits;
}
