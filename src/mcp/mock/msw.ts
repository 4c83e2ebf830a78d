import { http, type RequestHandler } from 'msw';
import type { MockMCP } from './mock-mcp.ts';

/**
 * MSW handlers answering Streamable HTTP at `url` from a mock, in the test's process: an MCP
 * client using fetch reaches it with no port.
 * @example
 *   server.use(...mockMCPHandlers(mock, 'http://github.mcp.test/mcp'));
 *   await client.connect(new StreamableHTTPClientTransport(new URL('http://github.mcp.test/mcp')));
 */
export function mockMCPHandlers(mock: MockMCP, url: string): RequestHandler[] {
  const target = new URL(url);
  const path = target.pathname.replace(/\/+$/, '') || '/';
  return [
    http.all(
      ({ request }) => {
        const u = new URL(request.url);
        return u.origin === target.origin && (u.pathname.replace(/\/+$/, '') || '/') === path;
      },
      ({ request }) => mock.handle(request),
    ),
  ];
}
