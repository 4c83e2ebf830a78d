import type { AfterRule, ResourceUpdate } from './schema.ts';

/**
 * What changed between calls while a server was recorded: its list_changed and resources/updated
 * notifications, each anchored to the number of tool calls answered by then (a call in flight
 * counts, so a change the server announces while answering call k happens "after k calls"), and
 * what the client fetched next (the new list, the re-read contents). `plan()` turns them into the
 * scenario's lists (later arrivals hidden) and `after` rules that replay each change at its point.
 */

type Json = Record<string, unknown>;
export type ListKind = 'tools' | 'resources' | 'prompts';

const CHANGED: Record<string, ListKind> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/resources/list_changed': 'resources',
  'notifications/prompts/list_changed': 'prompts',
};
const LISTED: Record<string, ListKind> = { 'tools/list': 'tools', 'resources/list': 'resources', 'prompts/list': 'prompts' };
const KINDS: ListKind[] = ['tools', 'resources', 'prompts'];

/** The fields each list's items keep in a scenario (fields the format does not know are dropped). */
const FIELDS: Record<ListKind, string[]> = {
  tools: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'],
  resources: ['uri', 'name', 'title', 'description', 'mimeType'],
  prompts: ['name', 'title', 'description', 'arguments'],
};

/** An item of a list as a scenario keeps it: known fields only, plain JSON. */
export function definitionOf(kind: ListKind, item: Json): Json {
  return JSON.parse(JSON.stringify(Object.fromEntries(FIELDS[kind].map((k) => [k, item[k]]))));
}

const keyOf = (kind: ListKind, item: Json): string => String(kind === 'resources' ? item.uri : item.name);

interface ListChange {
  kind: ListKind;
  at: number;
  /** The list the client fetched after the notification; absent when it never did. */
  list?: Json[];
}

interface Update {
  kind: 'updated';
  at: number;
  uri: string;
  /** The contents the client read after the notification; absent when it never did. */
  contents?: ResourceUpdate;
}

/** One list's items in scenario order (the order they first appeared), hidden when not in the first list. */
export interface PlannedItem {
  definition: Json;
  hidden: boolean;
}

export interface ChangePlan {
  /** Per list, its items; absent for a list the client never fetched. */
  lists: Partial<Record<ListKind, PlannedItem[]>>;
  /** Contents of resources as first read, by URI (an update before the first call counts as the first). */
  reads: Map<string, ResourceUpdate>;
  after: AfterRule[];
}

function contentsOf(uri: string, result: Json): ResourceUpdate {
  const c = (((result.contents as Json[]) ?? [])[0] ?? {}) as Json;
  return JSON.parse(JSON.stringify({ uri, mimeType: c.mimeType, text: c.text, blob: c.blob }));
}

export class RecordedChanges {
  /** The first list of each kind the client fetched. */
  readonly #first: Partial<Record<ListKind, Json[]>> = {};
  readonly #changes: Array<ListChange | Update> = [];
  /** A list_changed still waiting for the client's next list of its kind. */
  readonly #pending: Partial<Record<ListKind, ListChange>> = {};
  /** The list the latest first page started: later pages (by cursor) add to it. */
  readonly #filling: Partial<Record<ListKind, Json[] | undefined>> = {};
  /** A resources/updated still waiting for the client to read its URI. */
  readonly #pendingReads = new Map<string, Update>();
  readonly #reads = new Map<string, ResourceUpdate>();

  /** A notification from the server; `at`: tool calls answered so far, plus one while a call runs. */
  notification(method: string, params: Json | undefined, at: number): void {
    const kind = CHANGED[method];
    if (kind) {
      const change: ListChange = { kind, at };
      this.#changes.push(change);
      this.#pending[kind] = change;
    } else if (method === 'notifications/resources/updated' && typeof params?.uri === 'string') {
      const update: Update = { kind: 'updated', at, uri: params.uri };
      this.#changes.push(update);
      this.#pendingReads.set(params.uri, update);
    }
  }

  /** A result the client got: lists and reads are noted. */
  result(method: string, params: Json, result: Json): void {
    const kind = LISTED[method];
    if (kind) {
      const items = ((result[kind] as Json[]) ?? []).map((i) => definitionOf(kind, i));
      if (params.cursor) return void this.#filling[kind]?.push(...items);
      const pending = this.#pending[kind];
      delete this.#pending[kind];
      // A re-list no notification asked for should show the same list; it is not a change.
      const target = pending ? (pending.list = items) : this.#first[kind] ? undefined : (this.#first[kind] = items);
      this.#filling[kind] = target;
    } else if (method === 'resources/read') {
      const uri = String(params.uri);
      const update = this.#pendingReads.get(uri);
      this.#pendingReads.delete(uri);
      if (update) update.contents = contentsOf(uri, result);
      else if (!this.#reads.has(uri)) this.#reads.set(uri, contentsOf(uri, result));
    }
  }

  /** The scenario's lists and the `after` rules that replay the changes. */
  plan(): ChangePlan {
    // Stable: concurrent calls can deliver a later anchor first.
    const changes = [...this.#changes].sort((a, b) => a.at - b.at);
    const reads = new Map(this.#reads);
    const lists: ChangePlan['lists'] = {};
    const after: AfterRule[] = [];
    const state = {} as Record<ListKind, { items: Map<string, PlannedItem>; visible: Set<string>; listed: Map<string, string> }>;
    for (const kind of KINDS) {
      // Changes before the first answered call have no point to replay at: the client sees their result from the start.
      const early = changes.filter((c): c is ListChange => c.kind === kind && c.at === 0 && c.list !== undefined).at(-1);
      const initial = early?.list ?? this.#first[kind];
      const items = new Map((initial ?? []).map((i) => [keyOf(kind, i), { definition: i, hidden: false }]));
      state[kind] = { items, visible: new Set(items.keys()), listed: new Map([...items].map(([k, v]) => [k, JSON.stringify(v.definition)])) };
      if (initial || changes.some((c) => c.kind === kind && c.list)) lists[kind] = [];
    }
    for (const c of changes) {
      if (c.kind === 'updated') {
        if (c.at === 0) {
          if (c.contents) reads.set(c.uri, c.contents);
        } else after.push({ calls: c.at, updated: [c.contents ?? { uri: c.uri }] });
        continue;
      }
      if (c.at === 0) continue;
      const rule: AfterRule = { calls: c.at, [c.kind]: {} };
      if (c.list) Object.assign(rule[c.kind]!, this.#diff(c.kind, c.list, state[c.kind]));
      after.push(rule);
    }
    for (const kind of KINDS) if (lists[kind]) lists[kind] = [...state[kind].items.values()];
    return { lists, reads, after };
  }

  /** Show, hide and change (a listed item whose definition differs), from the listed state to `list`; updates the state. */
  #diff(kind: ListKind, list: Json[], s: { items: Map<string, PlannedItem>; visible: Set<string>; listed: Map<string, string> }): { show?: string[]; hide?: string[]; change?: Json[] } {
    const keys = new Set(list.map((i) => keyOf(kind, i)));
    const show: string[] = [];
    const change: Json[] = [];
    for (const item of list) {
      const key = keyOf(kind, item);
      const text = JSON.stringify(item);
      if (!s.items.has(key)) s.items.set(key, { definition: item, hidden: true });
      else if (s.listed.get(key) !== text) change.push(item);
      s.listed.set(key, text);
      if (!s.visible.has(key)) show.push(key);
    }
    const hide = [...s.visible].filter((k) => !keys.has(k));
    s.visible = keys;
    return { ...(show.length && { show }), ...(hide.length && { hide }), ...(change.length && { change }) };
  }
}

/**
 * The tools a replay of `plan` lists once `answered` calls are answered (undefined: the client never
 * listed tools, so every tool is callable). A recorded call to a tool not listed then is answered by
 * the mock's own "not found" error, so the recording keeps no answer for it.
 */
export function toolsListedAfter(plan: ChangePlan, answered: number): Set<string> | undefined {
  if (!plan.lists.tools) return undefined;
  const listed = new Set(plan.lists.tools.filter((t) => !t.hidden).map((t) => String(t.definition.name)));
  for (const rule of plan.after) {
    if (rule.calls > answered || !rule.tools) continue;
    for (const name of rule.tools.show ?? []) listed.add(name);
    for (const name of rule.tools.hide ?? []) listed.delete(name);
  }
  return listed;
}
