/**
 * node:http ↔ Fetch: turns an IncomingMessage into a Request and writes a Response back with
 * backpressure. A body that errors (a simulated disconnect) destroys the socket, so the client
 * sees a network error just as with a real cut connection.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/**
 * The Fetch Request for a node request; `signal` aborts when the client goes away.
 * @example
 *   const request = await toFetchRequest(req, 'http://127.0.0.1:8080', controller.signal);
 */
export async function toFetchRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
  // A Buffer is a Uint8Array; the cast only bridges @types/node's ArrayBufferLike generic.
  return new Request(origin + (req.url ?? '/'), { method, headers, body: body as Uint8Array<ArrayBuffer> | undefined, signal });
}

function waitDrainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a Fetch Response to a node response, streaming the body with backpressure.
 * @example
 *   await writeFetchResponse(res, await handle(request));
 */
export async function writeFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  res.writeHead(response.status, headers);
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel().catch(() => {});
  res.once('close', onClose);
  let flushed: Promise<void> = Promise.resolve();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      flushed = new Promise((resolve) => res.write(value, () => resolve()));
      if (res.writableNeedDrain) await waitDrainOrClose(res);
    }
    res.end();
  } catch {
    // The body errored (disconnectAfterChunks) or the client left: let the frames already
    // written reach the client, then cut the connection without ending the chunked body.
    await Promise.race([flushed, new Promise((r) => setTimeout(r, 1000).unref())]);
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}
