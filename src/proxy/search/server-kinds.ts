/**
 * Whether two servers are of one kind, for fallbacks across servers. A task tracker and a mailbox both
 * have labels, and by its name alone a label tool of each does "the same"; nothing else they act on is
 * shared (tasks, projects and sections against messages, drafts and filters). Two products of one kind
 * share more than one thing (Slack and Teams: channels, messages, replies, users; Todoist and Asana:
 * tasks, projects, sections), whatever else each calls by its own word. So servers are alike when their
 * tools' object heads (the last word of what each acts on, from ./same-job.ts) share two or more; a
 * server with too few heads to judge (one search tool, a fetch) is alike to every other.
 *
 * Some heads say little of a product's kind, because every kind has them. Aspects of anything (details,
 * status, settings, history, links, "objects", "items") are no thing at all and count for nothing;
 * things that exist only on something else (comments, labels, fields, attachments, members) count half.
 * A Trello board and an Attio CRM both have lists, members and details (1.5: not alike); Shortcut and
 * HubSpot links, objects and workflows (1); Todoist and Plane projects, labels and comments (2: alike).
 * Such heads still make a server judgeable.
 */
import { stem } from '../../lexicon/index.ts';
import { ATTACHED_THINGS } from './detach.ts';

/** Aspects of anything, not things (general software usage), as stems: they weigh nothing. */
const ASPECTS = new Set([
  'detail', 'info', 'status', 'health', 'option', 'config', 'configuration', 'setting', 'metadata', 'content', 'history', 'activity', 'link', 'object', 'item',
].map(stem));
/**
 * Things that exist only on something else, as stems: they weigh half. The detach rule's (./detach.ts), and the
 * parts of a record it leaves out because removing one is a real delete (comments, fields, attachments).
 */
const ATTACHED = new Set([...ATTACHED_THINGS, 'comment', 'field', 'attribute', 'property', 'attachment'].map(stem));

const weight = (head: string): number => (ASPECTS.has(head) ? 0 : ATTACHED.has(head) ? 0.5 : 1);

/** Shared object heads two servers of one kind have at least. */
export const MIN_SHARED_HEADS = 2;
/** Fewer distinct heads than this and a server is not judged. */
export const MIN_HEADS = 3;

export interface ServerKinds {
  /** Whether servers `a` and `b` act on enough of the same things to stand in for each other. */
  alike(a: string, b: string): boolean;
}

/**
 * The kinds of a catalog's servers, from each tool's server and object head.
 * @example
 *   const kinds = serverKinds([{ server: 'todoist', head: 'task' }, { server: 'gmail', head: 'label' }]);
 *   kinds.alike('todoist', 'gmail'); // true here: too few heads to judge
 */
export function serverKinds(tools: ReadonlyArray<{ server: string; head?: string }>): ServerKinds {
  const heads = new Map<string, Set<string>>();
  for (const t of tools) {
    if (t.head === undefined) continue;
    let set = heads.get(t.server);
    if (!set) heads.set(t.server, (set = new Set()));
    set.add(t.head);
  }
  const memo = new Map<string, boolean>();
  return {
    alike(a: string, b: string): boolean {
      if (a === b) return true;
      const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
      let known = memo.get(key);
      if (known === undefined) {
        const x = heads.get(a) ?? new Set<string>();
        const y = heads.get(b) ?? new Set<string>();
        let shared = 0;
        for (const h of x) if (y.has(h)) shared += weight(h);
        known = x.size < MIN_HEADS || y.size < MIN_HEADS || shared >= MIN_SHARED_HEADS;
        memo.set(key, known);
      }
      return known;
    },
  };
}
