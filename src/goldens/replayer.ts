import { setTimeout as sleep } from 'node:timers/promises';
import { captureRequest } from './capture.ts';
import { compareValues } from './compare.ts';
import { GoldenMismatchError } from './errors.ts';
import { Masker } from './masks.ts';
import { normalizeRequest, sameJson, type NormalizedRequest, type VolatileOf } from './normalize.ts';
import type { Redactor } from './redact.ts';
import type { Interaction, RecordedResponse } from './schema.ts';
import { RecordedWires } from '../providers/recorded.ts';
import type { ServedReasoning } from '../providers/served-reasoning.ts';
import type { ServedAnswer } from '../providers/adapter.ts';

export interface ReplayerOptions {
  /** The golden's path, for error messages. */
  file: string;
  redactor: Redactor;
  ignorePaths?: readonly string[];
  /** `compressed` (default): no delays; `real`: events at their recorded offsets. */
  timing?: 'compressed' | 'real';
  /** Reads which provider API path a request called (the built-in adapters by default). */
  wires?: RecordedWires;
}

const NO_MASKS = new Masker({ defaults: false });
const encoder = new TextEncoder();

/**
 * Serves recorded interactions: each incoming request must match a not-yet-used interaction's whole
 * normalized request (method, provider API path, body; not the origin or base URL that carried it);
 * the first such interaction in recorded order answers.
 * @example const response = await new Replayer(golden.interactions, { file, redactor }).serve(request)
 */
export class Replayer {
  private readonly interactions: readonly Interaction[];
  private readonly normalized: NormalizedRequest[];
  private readonly used: boolean[];
  private readonly options: ReplayerOptions;
  private readonly apiPathOf: (method: string, url: string, headers: Record<string, string>) => string | null;
  private readonly volatileOf: VolatileOf;
  /** The reasoning values this replay handed out: the only ones a later request may pass back. */
  private readonly servedReasoning: ServedReasoning;
  /** `compressed` or `real`; may change between requests (a test asking for real timing). */
  timing: 'compressed' | 'real';

  constructor(interactions: readonly Interaction[], options: ReplayerOptions) {
    this.interactions = interactions;
    this.options = options;
    this.timing = options.timing ?? 'compressed';
    const wires = options.wires ?? new RecordedWires();
    this.apiPathOf = (method, url, headers) => wires.apiPath(method, url, headers);
    // Signatures and encrypted reasoning passed back differ between recordings: matching leaves them out.
    this.volatileOf = (method, url, headers) => wires.of(method, url, headers).volatileRequest;
    this.servedReasoning = wires.servedReasoning();
    this.normalized = interactions.map((i) => normalizeRequest(i.request, options.ignorePaths, this.apiPathOf, this.volatileOf));
    this.used = interactions.map(() => false);
  }

  /** How many recorded interactions were served. */
  get servedCount(): number {
    return this.used.filter(Boolean).length;
  }

  /** Interactions never asked for (the code under test now makes fewer calls). */
  unused(): number[] {
    return this.used.flatMap((u, i) => (u ? [] : [i]));
  }

  /**
   * Answers a request from the golden, or throws GoldenMismatchError with a diff against the closest recorded request.
   * @example await replayer.serve(new Request('https://api.openai.com/v1/chat/completions', { method: 'POST', body }))
   */
  async serve(request: Request): Promise<Response> {
    const captured = await captureRequest(request, this.options.redactor);
    const incoming = normalizeRequest(captured, this.options.ignorePaths, this.apiPathOf, this.volatileOf);
    const index = this.normalized.findIndex((n, i) => !this.used[i] && sameJson(n, incoming));
    if (index === -1) throw this.mismatch(incoming, captured.url);
    // The match left the minted values out; they must be ones this replay served, as served.
    const refusal = this.servedReasoning.refusal(captured, this.interactions[index].request);
    if (refusal) {
      const rule = refusal.rule ? ` (rule ${refusal.rule}, ${refusal.doc})` : '';
      throw new GoldenMismatchError(
        this.options.file,
        `golden ${this.options.file}: ${incoming.method} ${captured.url} matches interaction ${index}, but passes back a reasoning value this replay did not serve (altered, from another conversation, moved to another block, or dropped): ${refusal.error.message}`,
        `  The live API (and useMockLLM) refuses it the same way${rule}; the client got that ${refusal.error.status}. Pass signatures and encrypted reasoning back exactly as received.`,
        refusal.error,
      );
    }
    this.used[index] = true;
    const recorded = this.interactions[index].response;
    if (recorded.status < 300) this.servedReasoning.served(captured, servedAnswer(recorded));
    return this.respond(recorded);
  }

  private mismatch(incoming: NormalizedRequest, url: string): GoldenMismatchError {
    const { file } = this.options;
    if (this.interactions.length === 0) {
      return new GoldenMismatchError(file, `golden ${file} has no recorded interactions; ${incoming.method} ${url} cannot be replayed.`, 'Record it with `ghostwire test --record-goldens` (or GHOSTWIRE_RECORD=1).');
    }
    // Closest: fewest differences, preferring interactions not yet used, then recorded order.
    let best = { index: 0, diff: '', score: Infinity };
    this.normalized.forEach((recorded, i) => {
      const result = compareValues(recorded, incoming, { masker: NO_MASKS });
      const score = result.operations.length + (this.used[i] ? 0.5 : 0);
      if (score < best.score) best = { index: i, diff: result.diff, score };
    });
    const state = this.used[best.index] ? ' (already used)' : '';
    return new GoldenMismatchError(
      file,
      `golden ${file}: no recorded interaction matches ${incoming.method} ${url}. ` +
        `Closest is interaction ${best.index}${state}; differences (- recorded, + actual):`,
      best.diff || '  (identical request, but every matching interaction was already used: the code made more calls than recorded)',
    );
  }

  private respond(recorded: RecordedResponse): Response {
    const headers = new Headers(recorded.headers);
    if (this.timing === 'compressed') {
      // Recorded back-off hints would make the SDK sleep before its recorded retry; compressed time does not wait.
      for (const name of ['retry-after', 'retry-after-ms']) if (headers.has(name)) headers.set(name, '0');
    }
    if (!recorded.events) {
      const body = recorded.body === null || recorded.body === undefined ? null : typeof recorded.body === 'string' ? recorded.body : JSON.stringify(recorded.body);
      return new Response(recorded.status === 204 || recorded.status === 304 ? null : body, { status: recorded.status, headers });
    }
    const events = recorded.events;
    // Binary event-stream frames are kept as base64; text frames as their UTF-8 text.
    const bytes = (data: string): Uint8Array => (recorded.framing === 'binary' ? new Uint8Array(Buffer.from(data, 'base64')) : encoder.encode(data));
    const real = this.timing === 'real';
    const started = performance.now();
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next < events.length) {
          const event = events[next++];
          if (real) {
            const wait = event.offsetMs - (performance.now() - started);
            if (wait > 0) await sleep(wait);
          }
          controller.enqueue(bytes(event.data));
          return;
        }
        if (recorded.trailing) controller.enqueue(bytes(recorded.trailing));
        if (recorded.interrupted) {
          // Let the frames already handed out travel through any piping (MSW) before the cut discards buffers.
          await sleep(1);
          controller.error(new TypeError('terminated: the recorded stream was cut here'));
        }
        else controller.close();
      },
    });
    return new Response(stream, { status: recorded.status, headers });
  }
}

/** A recorded answer as its adapter reads minted values from it: the body, or the stream's frames. */
function servedAnswer(recorded: RecordedResponse): ServedAnswer {
  if (!recorded.events) return { json: recorded.body };
  const binary = recorded.framing === 'binary';
  return { frames: recorded.events.map((e) => (binary ? new Uint8Array(Buffer.from(e.data, 'base64')) : e.data)) };
}
