// node:http through require(), not import: an ES module namespace of node:http is built from every one of
// its exports, and three of them (WebSocket, CloseEvent, MessageEvent, since Node 22) are getters that load
// undici, ~40-70 ms of CPU. The servers ghostwire starts (the mock LLM, the mock MCP server, the proxy)
// need only createServer; a process that never uses fetch then never loads undici.
import { requireLazily } from './require-lazily.ts';

/**
 * node:http, loaded on first use without its module namespace.
 * @example
 *   const server = nodeHttp().createServer(onRequest);
 */
export const nodeHttp = requireLazily<typeof import('node:http')>('node:http');
