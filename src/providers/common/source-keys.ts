/**
 * Template keys of answers whose content is their step's own (`CanonicalResponse.source`). Such a
 * key is the step's number and what varies from request to request besides the per-answer values:
 * the adapter's part, the model, `stream`, the path, the usage, and ids too short to be values. Most
 * requests of a step give the same key as the step's last one, so each step remembers its last key
 * with what it was built from: when they match, the same string is handed back, its hash already
 * computed, and the template lookup neither builds nor hashes a new key.
 */
import { MIN_VALUE } from './answer-template.ts';
import type { CanonicalRequest, CanonicalResponse, CanonicalUsage } from '../../scenario/canonical.ts';

interface LastKey {
  number: number;
  adapterId: string;
  adapterKey: string;
  model: string;
  stream: boolean;
  path: string;
  usage: CanonicalUsage | null;
  key: string;
}

/**
 * Numbers steps (weakly: a replaced scenario's steps go) and builds their answers' keys.
 * @example
 *   const keys = new SourceKeys();
 *   keys.of(response.source!, 'openai-chat', '[null,null,null]', response, request) // 'openai-chat\u0000[null,null,null]\u0000#0|…'
 */
export class SourceKeys {
  readonly #last = new WeakMap<object, LastKey>();
  #next = 0;

  /** The key of `response` (whose `source` is `source`) as the adapter `adapterId` renders it, `adapterKey` its part. */
  of(source: object, adapterId: string, adapterKey: string, response: CanonicalResponse, request: CanonicalRequest): string {
    const { model, path } = request;
    const stream = request.stream;
    const usage = response.usage;
    let last = this.#last.get(source);
    if (last === undefined) this.#last.set(source, (last = { number: this.#next++, adapterId: '', adapterKey: '', model: '', stream: false, path: '', usage: null, key: '' }));
    else if (
      last.adapterId === adapterId &&
      last.adapterKey === adapterKey &&
      last.model === model &&
      last.stream === stream &&
      last.path === path &&
      last.usage !== null &&
      sameUsage(last.usage, usage) &&
      !hasShortIds(response)
    ) {
      return last.key;
    }
    let key = `${adapterId}\u0000${adapterKey}\u0000#${last.number}|${model.length}:${model}|${stream ? 1 : 0}|${path.length}:${path}|`;
    const fields = usage as unknown as Record<string, unknown>;
    for (const name in fields) key += `${name}=${String(fields[name])},`;
    if (response.id.length < MIN_VALUE) key += `|${response.id.length}:${response.id}`;
    for (const c of response.toolCalls) if (c.id.length < MIN_VALUE) key += `|${c.id.length}:${c.id}`;
    last.adapterId = adapterId;
    last.adapterKey = adapterKey;
    last.model = model;
    last.stream = stream;
    last.path = path;
    // A copy: the usage object is the answer's, and nothing says it stays as it is.
    last.usage = { ...usage };
    last.key = key;
    return key;
  }
}

/**
 * The same fields with the same values. The order is not compared: adapters read usage by name, so two
 * usages of the same fields render alike (the engine builds its own in one order anyway).
 */
function sameUsage(a: CanonicalUsage, b: CanonicalUsage): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  let count = 0;
  for (const name in y) {
    if (!Object.is(x[name], y[name]) || !(name in x)) return false;
    count += 1;
  }
  for (const _ in x) count -= 1;
  return count === 0;
}

/** Ids too short to be values are content, spelled into the key: never the last key's. */
function hasShortIds(response: CanonicalResponse): boolean {
  if (response.id.length < MIN_VALUE) return true;
  for (const c of response.toolCalls) if (c.id.length < MIN_VALUE) return true;
  return false;
}
