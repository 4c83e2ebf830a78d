import { captureRequest, captureResponseHeaders, parseBody } from './capture.ts';
import type { Redactor } from './redact.ts';
import type { Interaction, RecordedRequest, SseEvent } from './schema.ts';
import { detectWireApi, summarizeJson, summarizeSse } from '../providers/stream-summary.ts';

/** Sends a request on to the upstream (the real provider or a base URL) without interception. */
export type Forward = (request: Request) => Promise<Response>;

/**
 * Passes requests through to the upstream and captures each exchange, in the order the requests were sent.
 * SSE bodies are streamed on to the caller as they arrive and kept frame by frame with arrival offsets.
 * @example const response = await recorder.handle(request, (r) => fetch(bypass(r)))
 */
export class Recorder {
  private readonly redactor: Redactor;
  private readonly slots: Array<Promise<Interaction | null>> = [];

  constructor(redactor: Redactor) {
    this.redactor = redactor;
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
    const contentType = upstream.headers.get('content-type') ?? '';
    const outHeaders = new Headers(upstream.headers);
    for (const h of ['content-length', 'content-encoding', 'transfer-encoding']) outHeaders.delete(h);
    if (!contentType.includes('text/event-stream') || !upstream.body) {
      const text = await upstream.text();
      settle(this.finish(recorded, { status: upstream.status, headers, body: this.redactor.deep(parseBody(text)) }, started));
      return new Response(upstream.status === 204 ? null : text, { status: upstream.status, statusText: upstream.statusText, headers: outHeaders });
    }
    return new Response(this.tee(upstream.body, recorded, upstream.status, headers, started, settle), {
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
    request: RecordedRequest,
    status: number,
    headers: Record<string, string>,
    started: number,
    settle: (value: Interaction | null) => void,
  ): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const events: SseEvent[] = [];
    let buffer = '';
    const done = (interrupted: boolean): void => {
      buffer += decoder.decode();
      const response = { status, headers, events, ...(buffer ? { trailing: this.redactor.text(buffer) } : {}), ...(interrupted ? { interrupted: true } : {}) };
      settle(this.finish(request, response, started));
    };
    const cut = (): void => {
      const at = (performance.now() - started);
      let end: number;
      while ((end = frameEnd(buffer)) !== -1) {
        events.push({ offsetMs: round(at), data: this.redactor.text(buffer.slice(0, end)) });
        buffer = buffer.slice(end);
      }
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
          buffer += decoder.decode(value, { stream: true });
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
    const url = new URL(request.url);
    const api = detectWireApi(request.method, url.pathname);
    const view = response.events ? summarizeSse(api, response.events.map((e) => e.data)) : summarizeJson(api, response.body);
    const isAnswer = api !== null && api !== 'embeddings' && response.status < 400;
    return {
      provider: api,
      request,
      response,
      summary: isAnswer ? { text: view.text, toolCalls: view.toolCalls, finishReason: view.finishReason } : null,
      usage: view.usage,
      durationMs: round(performance.now() - started),
    };
  }
}

/** Index just past the first complete SSE frame (blank-line terminated), or -1. */
function frameEnd(buffer: string): number {
  const lf = buffer.indexOf('\n\n');
  const crlf = buffer.indexOf('\r\n\r\n');
  if (lf === -1 && crlf === -1) return -1;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return crlf + 4;
  return lf + 2;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
