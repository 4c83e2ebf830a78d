/**
 * What every provider's model listing shares: the names to list, whether a retrieved model is
 * answered (named by a scenario, or answered by a catch-all step), a fixed creation time, and a
 * display name derived from the id.
 */
import type { ModelCatalog } from '../adapter.ts';
import type { ProviderId } from '../registry.ts';

/** A fixed timestamp: listings must not change between runs (goldens compare them). */
export const MODELS_CREATED = 1_700_000_000;

/** The names a listing shows: the catalog's, once each, empty names dropped. */
export function listedModels(catalog: ModelCatalog): string[] {
  return [...new Set(catalog.names.filter((m) => m.length > 0))];
}

/**
 * Does a retrieve of `id` answer: named by a scenario, or answered by some step for `providers`.
 * @example
 *   retrievable(catalog, 'gpt-4o-mini', ['openai']) // true on a server with a catch-all step
 */
export function retrievable(catalog: ModelCatalog, id: string, providers: readonly ProviderId[]): boolean {
  return catalog.names.includes(id) || catalog.answers(id, providers);
}

/**
 * A readable name from a model id: words capitalised, date stamps dropped.
 * @example
 *   displayName('claude-sonnet-4-5-20250929') // 'Claude Sonnet 4 5'
 */
export function displayName(id: string): string {
  return id
    .split(/[-_]/)
    .filter((w) => !/^\d{8}$/.test(w))
    .map((w) => (w.length > 0 ? w[0].toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/**
 * Decodes a path segment; null when its percent-escapes are malformed (the caller answers its 400/404).
 * @example
 *   decodeSegment('gpt%2D4o') // 'gpt-4o'
 *   decodeSegment('%E0%A4%A') // null
 */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
