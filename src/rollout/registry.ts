/**
 * A named table of factories with default arguments: the shape shared by the
 * tool registry and the environment registry. State lives in the instance, so
 * two test files (or two rollouts) never see each other's registrations.
 * @example
 *   const greetings = new Registry<() => string>('greeting').add('hello', () => 'hi');
 */
export class Registry<F> {
  readonly kind: string;
  readonly #entries = new Map<string, { factory: F; defaults: Record<string, unknown> }>();

  constructor(kind: string) {
    this.kind = kind;
  }

  /**
   * Adds a factory under `id`; a second registration of the same id is an error.
   *
   * @example
   * new Registry<() => string>('greeting').add('hello', () => 'hi');
   */
  add(id: string, factory: F, defaults: Record<string, unknown> = {}): this {
    if (!id) throw new Error(`${this.kind} id must be a non-empty string`);
    if (this.#entries.has(id)) {
      throw new Error(`${this.kind} "${id}" is already registered; ids must be unique (registered: ${this.ids().join(', ')})`);
    }
    this.#entries.set(id, { factory, defaults: { ...defaults } });
    return this;
  }

  /**
   * The factory for `id` and its args: registered defaults, overridden by `args`.
   *
   * @example
   * const { factory, args } = registry.resolve('mcp', { server_url: 'http://127.0.0.1:3000/mcp' });
   */
  resolve(id: string, args: Record<string, unknown> = {}): { factory: F; args: Record<string, unknown> } {
    const entry = this.#entries.get(id);
    if (!entry) {
      throw new Error(`unknown ${this.kind} "${id}"; registered: ${this.ids().join(', ') || '(none)'}`);
    }
    return { factory: entry.factory, args: { ...entry.defaults, ...args } };
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  ids(): string[] {
    return [...this.#entries.keys()];
  }
}
