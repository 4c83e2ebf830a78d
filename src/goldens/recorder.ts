import { captureRequest, captureResponseHeaders, parseBody } from './capture.ts';
import type { Redactor } from './redact.ts';
import { answerSummary } from './summary.ts';
import type { Interaction, RecordedRequest, SseEvent } from './schema.ts';
import { RecordedWires, splitFrames, type Framing, type RecordedFrame } from '../providers/index.ts';

/** Sends a request on to the upstream (the real provider or a base URL) without interception. */
export type Forward = (request: Request) => Promise<Response>;

/**
 * Passes requests through to the upstream and captures each exchange, in the order the requests were sent.
 * SSE bodies are streamed on to the caller as they arrive and kept frame by frame with arrival offsets.
 * @example const response = await recorder.handle(request, (r) => fetch(bypass(r)))
 */
export class Recorder {
  private readonly redactor: Redactor;
  private readonly wires: RecordedWires;
  private readonly slots: Array<Promise<Interaction | null>> = [];

  constructor(redactor: Redactor, wires: RecordedWires = new RecordedWires()) {
    this.redactor = redactor;
    this.wires = wires;
  }

  /** Forwards the request and returns the upstream's response; the exchange is captured on the side. */
  async handle(request: Request, forward: Forward): Promise<Response> {
    const recorded = await captureRequest(request, this.redactor);
    const started = performance.now();
    let settle!: (value: Interaction | null) => void;
    this.slots.push(new Promise((resolve) => (settle = resolve)));
    let upstream: Response;
    try {
      upstream = await forward(request);
    } catch (error) {
      settle(null);
      throw error;
    }
    const headers = captureResponseHeaders(upstream.headers, this.redactor);
    // The provider's adapter says how its streams are framed (SSE, NDJSON, binary event stream).
    const framing = this.wires.of(request.method, request.url, request.headers).framing(upstream.headers.get('content-type') ?? '');
    const outHeaders = new Headers(upstream.headers);
    for (const h of ['content-length', 'content-encoding', 'transfer-encoding']) outHeaders.delete(h);
    if (framing === null || !upstream.body) {
      const text = await upstream.text();
      settle(this.finish(recorded, { status: upstream.status, headers, body: this.redactor.deep(parseBody(text)) }, started));
      return new Response(upstream.status === 204 ? null : text, { status: upstream.status, statusText: upstream.statusText, headers: outHeaders });
    }
    return new Response(this.tee(upstream.body, framing, recorded, upstream.status, headers, started, settle), {
      status: upstream.status,
      statusText: upstream.statusText,
      headers: outHeaders,
    });
  }

  /** Every captured interaction, in request order, once all bodies are complete. */
  async settled(): Promise<Interaction[]> {
    const all = await Promise.all(this.slots);
    return all.filter((i): i is Interaction => i !== null);
  }

  private tee(
    body: ReadableStream<Uint8Array>,
    framing: Framing,
    request: RecordedRequest,
    status: number,
    headers: Record<string, string>,
    started: number,
    settle: (value: Interaction | null) => void,
  ): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const events: SseEvent[] = [];
    let buffer: Uint8Array = new Uint8Array(0);
    // Frames are cut on the framing's own boundaries, which always fall between whole characters:
    // each text frame decodes on its own, byte-exact.
    const keep = (bytes: Uint8Array): string => (framing === 'binary' ? Buffer.from(bytes).toString('base64') : this.redactor.text(decoder.decode(bytes)));
    const done = (interrupted: boolean): void => {
      const response = {
        status,
        headers,
        events,
        ...(framing === 'sse' ? {} : { framing }),
        ...(buffer.length > 0 ? { trailing: keep(buffer) } : {}),
        ...(interrupted ? { interrupted: true } : {}),
      };
      settle(this.finish(request, response, started));
    };
    const cut = (): void => {
      const at = performance.now() - started;
      const { frames, rest } = splitFrames(framing, buffer);
      for (const frame of frames) events.push({ offsetMs: round(at), data: keep(frame) });
      buffer = frames.length > 0 ? rest.slice() : buffer;
    };
    const append = (chunk: Uint8Array): void => {
      const next = new Uint8Array(buffer.length + chunk.length);
      next.set(buffer);
      next.set(chunk, buffer.length);
      buffer = next;
    };
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done: finished } = await reader.read();
          if (finished) {
            cut();
            done(false);
            controller.close();
            return;
          }
          append(value);
          cut();
          controller.enqueue(value);
        } catch (error) {
          cut();
          done(true);
          controller.error(error);
        }
      },
      async cancel(reason) {
        cut();
        done(true);
        await reader.cancel(reason);
      },
    });
  }

  private finish(request: RecordedRequest, response: Interaction['response'], started: number): Interaction {
    const wire = this.wires.of(request.method, request.url, request.headers);
    const reader = wire.reader;
    const frames = (): RecordedFrame[] =>
      (response.events ?? []).map((e) => (response.framing === 'binary' ? new Uint8Array(Buffer.from(e.data, 'base64')) : e.data));
    const view = reader ? (response.events ? reader.streamedAnswer(frames()) : reader.answer(response.body)) : null;
    const isAnswer = reader !== null && reader.conversational && response.status < 400;
    return {
      provider: wire.provider,
      request,
      response,
      summary: isAnswer && view ? answerSummary(view) : null,
      usage: view?.usage ?? null,
      durationMs: round(performance.now() - started),
    };
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
