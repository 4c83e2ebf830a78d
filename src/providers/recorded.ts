/**
 * Recorded traffic, read through the adapter that would have served it: which provider a
 * recorded request was for, how its streamed answer is framed, and the reader that summarises it.
 * Goldens (recorder, summaries, drift) and `ghostwire inspect` ask here and know no provider.
 */
import type { ProviderAdapter } from './adapter.ts';
import { framingOfContentType, type Framing } from './common/framing.ts';
import type { WireReader } from './common/views.ts';
import type { VolatileField } from './common/volatile-fields.ts';
import { defaultAdapters } from './registry.ts';
import { ProviderRouter } from './router.ts';
import { ServedReasoning } from './served-reasoning.ts';
import type { CanonicalError } from '../scenario/canonical.ts';

/** What is known about one recorded exchange's wire API. */
export interface RecordedWire {
  /** The provider id (`openai`, `anthropic`, ...), null when no adapter serves the URL. */
  provider: string | null;
  reader: WireReader | null;
  /** The framing of a response with this content type: null for a whole (JSON or text) body. */
  framing(contentType: string): Framing | null;
  /** Request fields a re-recording changes though the conversation is the same (signatures, encrypted reasoning). */
  volatileRequest: readonly VolatileField[];
}

/**
 * Reads recorded requests with a set of adapters (the built-in ones by default).
 * @example
 *   const wire = new RecordedWires().of('POST', 'https://api.openai.com/v1/chat/completions');
 *   wire.reader?.answer(body).text
 */
export class RecordedWires {
  readonly #router: ProviderRouter;
  readonly #byId = new Map<string, ProviderAdapter>();

  constructor(adapters: readonly ProviderAdapter[] = defaultAdapters()) {
    this.#router = new ProviderRouter(adapters);
    for (const a of adapters) if (!this.#byId.has(a.id)) this.#byId.set(a.id, a);
  }

  /**
   * The API request a recorded one was, whatever base URL carried it: `POST /v1/chat/completions`
   * for `http://127.0.0.1:43849/v1/chat/completions` and for `https://api.openai.com/v1/chat/completions`
   * alike (path as the adapter recognises it, query kept); null when no adapter serves the URL.
   * @example new RecordedWires().apiPath('POST', 'http://127.0.0.1:9/v1/chat/completions') // '/v1/chat/completions'
   */
  apiPath(method: string, url: string, headers: Record<string, string> | Headers = {}): string | null {
    try {
      const parsed = new URL(url);
      const route = this.#router.recordedRoute(method.toUpperCase(), parsed, headers instanceof Headers ? headers : new Headers(headers));
      return route ? `${route.path}${parsed.search}` : null;
    } catch {
      return null;
    }
  }

  /**
   * A fresh record of the reasoning values one replay serves, checked against the requests that pass them back.
   * @example const served = wires.servedReasoning()
   */
  servedReasoning(): ServedReasoning {
    return new ServedReasoning(this.#router);
  }

  /**
   * `error` as the API a request called answers errors (its adapter's `renderError`): Anthropic's
   * `{ type: 'error', error, request_id }`, OpenAI's `{ error: { message, type, param, code } }`, Google's
   * `{ error: { code, message, status } }`; a neutral `{ error: { message, type, code } }` where no adapter serves the URL.
   * @example wires.errorResponse('POST', 'https://api.anthropic.com/v1/messages', {}, { status: 400, message: 'no match', headers: {} })
   */
  errorResponse(method: string, url: string, headers: Record<string, string> | Headers, error: CanonicalError): Response {
    let adapter: ProviderAdapter | null = null;
    try {
      adapter = this.#router.recorded(method.toUpperCase(), new URL(url), headers instanceof Headers ? headers : new Headers(headers));
    } catch {
      // A URL that does not parse: the neutral shape.
    }
    const rendered = adapter?.renderError(error) ?? { status: error.status, headers: error.headers, json: { error: { message: error.message, type: error.type ?? null, code: error.code ?? null } } };
    const out = new Headers(rendered.headers);
    if (!out.has('content-type')) out.set('content-type', 'application/json');
    return new Response(rendered.text ?? JSON.stringify(rendered.json ?? null), { status: rendered.status, headers: out });
  }

  /** The wire of a recorded request; `provider` (a golden's stored id) is the fallback when the URL routes nowhere. */
  of(method: string, url: string, headers: Record<string, string> | Headers = {}, provider?: string | null): RecordedWire {
    let adapter: ProviderAdapter | null = null;
    try {
      adapter = this.#router.recorded(method.toUpperCase(), new URL(url), headers instanceof Headers ? headers : new Headers(headers));
    } catch {
      // A URL or header that does not parse: fall back to the stored provider id.
    }
    adapter ??= (provider ? this.#byId.get(provider) : undefined) ?? null;
    return {
      provider: adapter?.id ?? null,
      reader: adapter?.reader ?? null,
      volatileRequest: adapter?.reader.volatileRequest ?? [],
      framing(contentType: string): Framing | null {
        const framing = framingOfContentType(contentType);
        return framing === null ? null : (adapter?.framing ?? framing);
      },
    };
  }
}
