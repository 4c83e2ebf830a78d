/**
 * The query's action leads (lexical ranking): when a query asks to change something, a tool that only looks
 * does not stay above a tool of the asked action that acts on what the query names. The ranking's scored
 * hits, the list they are kept in, and the reordering.
 */
import type { Action } from './verbs.ts';

/** A tool of the asked action scoring at least this share of another action's tool ranks above it. */
const ACTION_LEAD = 0.5;

/** A scored document while ranking. */
export interface Hit { d: number; score: number; held: boolean; sim: number; fit: 'match' | 'clash' | 'unknown'; looks: boolean; onObject: boolean; onPlace?: boolean }

/** Actions that only look at something. */
const LOOKING: ReadonlySet<Action> = new Set(['read', 'list', 'search']);
const CHANGING: ReadonlySet<Action> = new Set(['create', 'update', 'move', 'archive', 'delete', 'send', 'restore']);
export const meets = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].some((x) => b.has(x));
export const onlyLooks = (actions: ReadonlySet<Action>): boolean => actions.size > 0 && [...actions].every((a) => LOOKING.has(a));

/**
 * The query's action leads: when it asks to change something, a tool that only looks (its action, or an
 * MCP readOnlyHint on a tool whose words name none; "read_text_file" for
 * "write text to a file") never stays above a tool of the asked action that scores at least ACTION_LEAD of
 * it and acts on what the query names ("file" of "write text to a file", "folder" of "make a folder" for
 * `create_directory`), however many more words it shares with the query. Held-back tools are not moved.
 * A query that only looks is left alone: "show the drop-off from visit to purchase" may well want a tool
 * that makes a chart.
 */
export function actionLeads(top: Hit[]): void {
  for (let i = 0; i < top.length; i++) {
    if (!top[i].looks || top[i].fit === 'match') continue;
    const floor = top[i].score * ACTION_LEAD;
    const up: Hit[] = [];
    for (let j = top.length - 1; j > i; j--) if (top[j].fit === 'match' && top[j].onObject && !top[j].held && top[j].score >= floor) up.unshift(...top.splice(j, 1));
    top.splice(i, 0, ...up);
    i += up.length;
  }
}

/** A tool acting on what the query acts on, scoring at least this share of a sibling that does not, ranks above it. */
const OBJECT_LEAD = 0.5;

/**
 * The query's object leads: of two tools doing the asked action, one acting on what the query acts on
 * ("list all feature flags in project web-app" → list-feature-flags, "list the containers in the database" →
 * list_containers) never stays below one acting on where that object is (list_projects, list_databases), when
 * it scores at least OBJECT_LEAD of it. Held-back tools are not moved.
 */
export function objectLeads(top: Hit[]): void {
  for (let i = 0; i < top.length; i++) {
    if (top[i].fit !== 'match' || top[i].onObject || !top[i].onPlace) continue;
    const floor = top[i].score * OBJECT_LEAD;
    // Only the best such sibling moves: the rest keep their ranks (a place's tool stays near the top).
    const j = top.findIndex((h, at) => at > i && h.fit === 'match' && h.onObject && !h.held && h.score >= floor);
    if (j > i) {
      top.splice(i, 0, ...top.splice(j, 1));
      i++;
    }
  }
}

/** Inserts a hit into a list kept best first and at most `k` long. */
export function keep(list: Hit[], hit: Hit, k: number): void {
  if (list.length < k || better(hit, list[list.length - 1])) {
    let at = list.length;
    while (at > 0 && better(hit, list[at - 1])) at--;
    list.splice(at, 0, hit);
    if (list.length > k) list.pop();
  }
}

/** Higher score first; equal scores keep index order, so results are deterministic. */
export function better(a: { d: number; score: number }, b: { d: number; score: number }): boolean {
  return a.score > b.score || (a.score === b.score && a.d < b.d);
}


/**
 * Whether a query's actions change something (running is left out: a query run may only read).
 * @example
 *   changesSomething(new Set(['create'])); // true
 */
export function changesSomething(asked: ReadonlySet<Action>): boolean {
  return [...asked].some((a) => CHANGING.has(a));
}
