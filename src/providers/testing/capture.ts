/**
 * Test-only: a `fetch` for SDK clients that answers from a handler and keeps every raw exchange,
 * so tests can check the exact bytes the SDK parsed (and validate them against a spec).
 */

export interface Exchange {
  method: string;
  url: string;
  requestBody: string;
  status: number;
  headers: Headers;
  /** The whole response body as text (for SSE: every frame as sent). */
  body: Promise<string>;
}

/** The `data:` payloads of an SSE body, in order (`[DONE]` included as the string). */
export function sseData(body: string): string[] {
  return body
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((frame) => frame.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'));
}

/**
 * Wraps a handler as a fetch that records exchanges (the response is teed: the SDK reads one copy).
 * @example
 *   const { fetch, exchanges } = capturingFetch(mock.handle);
 *   const client = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 });
 */
export function capturingFetch(handle: (request: Request) => Promise<Response>): {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  exchanges: Exchange[];
} {
  const exchanges: Exchange[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const requestBody = await request.clone().text();
    const response = await handle(request);
    const copy = response.clone();
    exchanges.push({
      method: request.method,
      url: request.url,
      requestBody,
      status: response.status,
      headers: response.headers,
      body: copy.text().catch((e: unknown) => `<<body error: ${String(e)}>>`),
    });
    return response;
  };
  return { fetch, exchanges };
}
