/**
 * The verb table the query and tool readers share: English verbs by the action they ask for (read,
 * list, search, create, update, move, archive, delete, send, run, restore), phrasal verbs, and the
 * function words around an imperative. General English, no tool names.
 */
import { sharedWordNet } from '../../lexicon/index.ts';

export type Action = 'read' | 'list' | 'search' | 'create' | 'update' | 'move' | 'archive' | 'delete' | 'send' | 'run' | 'restore';

/** Verbs by base form; words are matched on their own forms, not stems ("terminal" is no "terminate"). */
const VERBS: Record<string, Action[]> = {};
const define = (actions: Action[], list: string): void => {
  for (const w of list.split(' ')) VERBS[w] = [...(VERBS[w] ?? []), ...actions];
};

/** The verb a word is a form of: "deletes", "deleted", "deleting", "running" → their base. */
export function verbOf(word: string): Action[] | undefined {
  // Suffixes cut by hand, not by regular expressions: every reader asks this of every word, again and again.
  const n = word.length;
  const cut = (suffix: string, by = ''): string => (word.endsWith(suffix) ? word.slice(0, n - suffix.length) + by : word);
  // "running" → run, "dropped" → drop: a doubled letter before the suffix, kept once.
  const undouble = (suffix: string): string => {
    const at = n - suffix.length - 1;
    return at >= 1 && word.endsWith(suffix) && word[at] === word[at - 1] ? word.slice(0, at) : word;
  };
  const forms = [word, cut('s'), cut('es'), cut('ed'), cut('d'), cut('ing'), cut('ing', 'e'), undouble('ing'), undouble('ed'), cut('ies', 'y'), cut('ied', 'y')];
  for (const f of forms) if (f.length > 1 && VERBS[f]) return VERBS[f];
  return undefined;
}

define(['read'], 'read get show view display fetch retrieve see inspect describe check print download look tell whoami preview');
define(['list'], 'list enumerate browse');
define(['search'], 'search find query lookup grep locate');
define(['create'], 'create add new make insert generate init initialize write file start register save store');
define(['create', 'send'], 'post');
define(['update'], 'update edit modify change set patch put rename replace append upgrade edit mark assign');
// Moving is a kind of update: a move tool answers an edit, but an edit tool does not answer a move.
define(['move'], 'move relocate reorder rearrange reposition');
// Changing how or when something shows: an edit, not a deletion ("hide the columns", "postpone the call").
define(['update'], 'hide reschedule postpone sort pin unpin star unstar mute unmute snooze highlight resize');
define(['delete'], 'delete remove drop destroy erase purge clear clean kill terminate uninstall wipe discard forget revoke prune cancel unassign trash flush nuke scrap ditch expunge strip');
define(['send'], 'send message notify reply email share tell');
// Archiving, unpublishing and deactivating hide what they can bring back: their own action, so they never
// answer a delete nor a delete them.
define(['archive'], 'archive unpublish deactivate');
// Bringing back what was deleted, archived or closed: its own action, so an undo never matches a delete or a plain edit.
define(['restore'], 'restore recover undelete unarchive reopen unhide');
define(['run'], 'run execute exec trigger launch invoke rerun');

/** Verbs that read something and keep a copy of it: a tool that downloads answers "save the PDF to disk". */
export const KEEPS_COPY = new Set(['download', 'downloads', 'export', 'exports', 'backup', 'dump', 'clone']);

/** Phrasal verbs by verb and particle (general English): "throw away" deletes, "kick off" runs. */
export const PHRASAL: Record<string, Record<string, Action[]>> = {
  take: { off: ['delete'], down: ['delete'], away: ['delete'] }, throw: { away: ['delete'], out: ['delete'] },
  get: { rid: ['delete'] }, clean: { up: ['delete'] }, wipe: { out: ['delete'] }, tear: { down: ['delete'] },
  kick: { off: ['run'] }, carry: { out: ['run'] }, spin: { up: ['create'] }, set: { up: ['create'] },
  write: { down: ['create'] }, note: { down: ['create'] }, look: { up: ['search'] }, roll: { back: ['update'] },
  fill: { in: ['update'] }, turn: { on: ['update'], off: ['update'] }, bring: { up: ['read'] }, pull: { up: ['read'] },
  check: { off: ['update'] }, wrap: { up: ['update'] },
};

export const HTTP_METHODS: Record<string, Action> = { GET: 'read', POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/** Objects that make "open" mean creating one ("open a ticket") rather than reading. */
export const OPENED = new Set(['ticket', 'issue', 'bug', 'pr', 'pull', 'request', 'case', 'incident', 'account']);

/** Words that start a question or a statement, not an imperative, though WordNet knows them as verbs. */
const NOT_IMPERATIVE = new Set(['do', 'does', 'can', 'will', 'have', 'need', 'want', 'let', 'try', 'help', 'be', 'go', 'like', 'wish', 'hope', 'think', 'mind', 'say', 'must']);

/**
 * Whether a word the verb table does not know leads an imperative ("hide columns H to K",
 * "reschedule the lunch"): WordNet knows it as a verb, at least as common a verb as a noun
 * ("calendar", "weather" and "branch" are mostly nouns).
 */
export function unknownVerb(word: string | undefined): boolean {
  if (word === undefined || word.length < 3 || !/^[a-z]+$/.test(word) || NOT_IMPERATIVE.has(word) || verbOf(word)) return false;
  const wn = sharedWordNet();
  return wn.offsets(word, 'verb').length > 0 && wn.tagged(word, 'verb') >= wn.tagged(word, 'noun');
}

/** Words that end the object of an imperative: prepositions and clause openers. */
export const OBJECT_END = new Set(['to', 'from', 'in', 'on', 'of', 'for', 'with', 'into', 'onto', 'at', 'by', 'as', 'off', 'where', 'that', 'which', 'who', 'so', 'and', 'or', 'if', 'when', 'after', 'before', 'inside', 'within', 'under', 'about', 'without', 'instead', 'rather', 'not', 'until', 'unless', 'but', 'because', 'except']);

/** Words before an object, or standing in for one. */
export const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'its', 'their', 'all', 'any', 'every', 'some', 'it', 'them', 'everything', 'anything', 'something', 'nothing', 'one']);
