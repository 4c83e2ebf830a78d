/**
 * Replays recorded realtime conversations: a client's connection gets the next recorded conversation
 * on its path; the server frames are sent as the recording has them, each once the client frames
 * recorded before it have come (compared, `event_id` aside, with what the recording has), at their
 * recorded offsets (`real`) or at once (`compressed`). A client frame the recording does not have
 * fails the test, naming the conversation, the frame and both texts.
 */
import type { MswRealtimeClient, RealtimeRoute } from '../transports/msw-realtime.ts';
import { closeReason } from '../transports/realtime.ts';
import { realtimeAdapterFor } from '../providers/realtime-registry.ts';
import { GoldenMismatchError } from './errors.ts';
import { clientCloseCode, realtimeSuffix, redactProtocol } from './realtime-recorder.ts';
import type { Redactor } from './redact.ts';
import type { RealtimeConversation } from './schema.ts';

/** A frame's text for comparison: JSON without its `event_id` (minted per event), else as sent. */
function comparable(data: string): string {
  try {
    const value = JSON.parse(data) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) delete (value as Record<string, unknown>).event_id;
    return JSON.stringify(value);
  } catch {
    return data;
  }
}

const shown = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** The client event's own `event_id`, when it is JSON and has one (the error event names the event at fault). */
function eventIdOf(data: string): string | null {
  try {
    const id = (JSON.parse(data) as { event_id?: unknown }).event_id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/**
 * Ends a connection the golden cannot go on with: the API's own error event first (its adapter's
 * renderError), so the client's error handler fires with the mismatch instead of waiting for a next
 * event, then the close, whose reason carries the words too (all a Gemini Live client gets).
 */
function refuse(client: MswRealtimeClient, path: string, code: number, message: string, clientEventId: string | null): void {
  const frames = realtimeAdapterFor(path)?.renderError?.({ message, code: 'ghostwire_golden_mismatch', clientEventId }) ?? [];
  for (const frame of frames) client.send(frame);
  // MSW delivers a sent frame in a microtask and drops it once the socket is closing: close after it went.
  if (frames.length === 0) client.close(code, closeReason(message));
  else setTimeout(() => client.close(code, closeReason(message)), 0);
}

export interface RealtimeReplayerOptions {
  file: string;
  redactor: Redactor;
  timing: () => 'compressed' | 'real';
  fail(error: Error): void;
}

export class RealtimeReplayer implements RealtimeRoute {
  readonly #conversations: readonly RealtimeConversation[];
  readonly #used = new Set<number>();
  readonly #options: RealtimeReplayerOptions;

  constructor(conversations: readonly RealtimeConversation[], options: RealtimeReplayerOptions) {
    this.#conversations = conversations;
    this.#options = options;
  }

  get servedCount(): number {
    return this.#used.size;
  }

  pathFor(url: URL): string | undefined {
    return realtimeSuffix(url.pathname);
  }

  /** Conversations never opened, as `index: URL path`. */
  unused(): string[] {
    return this.#conversations.flatMap((c, i) => (this.#used.has(i) ? [] : [`realtime ${i}: ${new URL(c.url).pathname}`]));
  }

  connect(client: MswRealtimeClient, path: string, protocols: readonly string[]): void {
    const { file, redactor } = this.#options;
    const index = this.#conversations.findIndex((c, i) => !this.#used.has(i) && realtimeSuffix(new URL(c.url).pathname) === path);
    if (index < 0) {
      const message = `no recorded realtime conversation left for ${path} in ${file} (${this.#conversations.length} recorded, ${this.#used.size} used)`;
      this.#options.fail(new GoldenMismatchError(file, message, 'Re-record with `ghostwire test --record-goldens` if the code now opens more connections.'));
      refuse(client, path, 4004, `ghostwire golden mismatch: ${message}`, null);
      return;
    }
    this.#used.add(index);
    const conversation = this.#conversations[index];
    const asked = protocols.map((p) => redactProtocol(p, redactor));
    if (JSON.stringify(asked) !== JSON.stringify(conversation.protocols)) {
      this.#options.fail(new GoldenMismatchError(file, `realtime ${index}: the client asked for subprotocols ${JSON.stringify(asked)}, the recording for ${JSON.stringify(conversation.protocols)}`, 'Re-record with `ghostwire test --record-goldens` if the change is intended.'));
    }
    const frames = conversation.frames;
    const started = performance.now();
    let next = 0;
    let open = true;
    let chain = Promise.resolve();
    const pump = async () => {
      while (open && next < frames.length && frames[next].direction === 'server') {
        const frame = frames[next++];
        const wait = frame.offsetMs - (performance.now() - started);
        if (this.#options.timing() === 'real' && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (open) client.send(frame.data);
      }
      if (open && next >= frames.length && conversation.close) {
        open = false;
        const { code, reason } = conversation.close;
        // After the frames just sent have gone: MSW delivers a frame in a microtask and drops it once
        // the socket is closing (as `refuse` does).
        setTimeout(() => client.close(clientCloseCode(code), reason), 0);
      }
    };
    chain = chain.then(pump);
    client.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as unknown;
      const text = redactor.text(typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8'));
      chain = chain.then(() => {
        // Refused already: what the client sends while the close is on its way is not compared again.
        if (!open && next < frames.length) return;
        const expected = frames[next];
        if (expected?.direction !== 'client' || comparable(expected.data) !== comparable(text)) {
          const what = expected?.direction === 'client' ? `expected ${shown(expected.data)}` : 'the recording has no client frame here';
          const message = `realtime ${index}, frame ${next}: the client sent ${shown(text)}; ${what}`;
          this.#options.fail(new GoldenMismatchError(file, message, 'Re-record with `ghostwire test --record-goldens` if the change is intended.'));
          open = false;
          // The words first: a close reason holds 123 bytes.
          refuse(client, path, 4000, `ghostwire golden mismatch: ${message} (the client diverged from the conversation recorded in ${file})`, eventIdOf(text));
          return;
        }
        next += 1;
        return pump();
      });
    });
    client.addEventListener('close', () => {
      open = false;
    });
  }
}
