/**
 * Idle expiry for Streamable HTTP sessions, shared by the proxy (node:http) and the mock MCP
 * server (web-standard Request/Response). It knows no transport: callers say when a request or a
 * stream on a session starts and ends. A session with nothing open for `idleMs` is handed to
 * `expire`; an open stream (the GET stream a client holds for notifications, a long tool call)
 * keeps it live, because a client that really vanished drops its connection and so its streams.
 */

/** setTimeout's largest delay; anything above it would fire after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Watched {
  /** Requests in flight and open streams. */
  open: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Expires sessions left with nothing open for `idleMs` (0 or Infinity: never).
 * @example
 *   const idle = new IdleExpiry<string>(30 * 60_000, (id) => void sessions.get(id)?.close());
 *   idle.watch(id);
 *   const end = idle.begin(id); // a request arrives
 *   res.once('close', end);     // ...and its response (or stream) ends
 */
export class IdleExpiry<K> {
  readonly #idleMs: number;
  readonly #expire: (key: K) => void;
  readonly #watched = new Map<K, Watched>();

  constructor(idleMs: number, expire: (key: K) => void) {
    if (!(idleMs >= 0)) throw new Error(`session idle time must be a number of milliseconds >= 0, got ${String(idleMs)}`);
    this.#idleMs = idleMs === 0 ? Infinity : idleMs;
    this.#expire = expire;
  }

  /** Sessions watched now. */
  get size(): number {
    return this.#watched.size;
  }

  /** Starts watching a session, idle from now. */
  watch(key: K): void {
    this.forget(key);
    const entry: Watched = { open: 0, timer: undefined };
    this.#watched.set(key, entry);
    this.#arm(key, entry);
  }

  /**
   * A request or stream on the session starts; call the returned function when it ends (once is
   * enough, more calls do nothing). Unknown sessions get a function that does nothing.
   */
  begin(key: K): () => void {
    const entry = this.#watched.get(key);
    if (!entry) return () => {};
    entry.open += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.open -= 1;
      if (entry.open === 0 && this.#watched.get(key) === entry) this.#arm(key, entry);
    };
  }

  /** Stops watching a session (it ended some other way: DELETE, close, a crash). */
  forget(key: K): void {
    const entry = this.#watched.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.#watched.delete(key);
  }

  /** Stops watching every session. */
  clear(): void {
    for (const entry of this.#watched.values()) clearTimeout(entry.timer);
    this.#watched.clear();
  }

  #arm(key: K, entry: Watched): void {
    if (this.#idleMs === Infinity) return;
    if (entry.timer) {
      // refresh() restarts the same timer (even one that already fired) without a new allocation.
      entry.timer.refresh();
      return;
    }
    entry.timer = setTimeout(() => {
      // Something opened since: its end arms the timer again.
      if (entry.open > 0 || this.#watched.get(key) !== entry) return;
      this.#watched.delete(key);
      this.#expire(key);
    }, Math.min(this.#idleMs, MAX_TIMER_MS));
    // A watched session must not keep the process alive.
    entry.timer.unref?.();
  }
}
