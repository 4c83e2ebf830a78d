import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { isConnectionFailure, isRetryableDrop } from './mcp-errors.ts';

const fetchFailed = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });

describe('error classification', () => {
  it.each([
    [new StreamableHTTPError(404, 'Session not found'), true, true],
    [new Error('Error POSTing to endpoint (HTTP 404): no such session'), true, false],
    [fetchFailed('ECONNREFUSED'), true, true],
    [new Error('Not connected'), true, false],
    [new StreamableHTTPError(500, 'boom'), false, true],
    [fetchFailed('UND_ERR_SOCKET'), false, true],
    [fetchFailed('ECONNRESET'), false, true],
    [new Error('MCP error -32000: Connection closed'), false, false],
    [new Error('MCP error -32602: Invalid arguments'), false, false],
  ])('%s: retryable %s, connection failure %s', (error, retryable, connection) => {
    expect(isRetryableDrop(error)).toBe(retryable);
    expect(isConnectionFailure(error)).toBe(connection);
  });
});
