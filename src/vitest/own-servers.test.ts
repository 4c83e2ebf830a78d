// The announced origins the MSW bridge lets through: counted per announcement, with the names a client may use.
import { describe, expect, test } from 'vitest';
import { OwnServers } from './own-servers.ts';

const req = (url: string) => new Request(url);

describe('OwnServers', () => {
  test('an origin passes until every server announced at it has closed; other ports never', () => {
    const own = new OwnServers();
    own.update({ event: 'listening', origin: 'http://127.0.0.1:4100' });
    own.update({ event: 'listening', origin: 'http://127.0.0.1:4100' });
    expect(own.has(req('http://127.0.0.1:4100/v1/chat/completions'))).toBe(true);
    expect(own.has(req('http://127.0.0.1:4101/v1'))).toBe(false);
    own.update({ event: 'close', origin: 'http://127.0.0.1:4100' });
    expect(own.has(req('http://127.0.0.1:4100/mcp'))).toBe(true);
    own.update({ event: 'close', origin: 'http://127.0.0.1:4100' });
    expect(own.has(req('http://127.0.0.1:4100/mcp'))).toBe(false);
    // A close with nothing announced leaves nothing behind (no negative count).
    own.update({ event: 'close', origin: 'http://127.0.0.1:4100' });
    own.update({ event: 'listening', origin: 'http://127.0.0.1:4100' });
    expect(own.has(req('http://127.0.0.1:4100/mcp'))).toBe(true);
  });

  test('a loopback server is also reached as localhost; one on every interface by the loopback names', () => {
    const own = new OwnServers();
    own.update({ event: 'listening', origin: 'http://127.0.0.1:4200' });
    expect(own.has(req('http://localhost:4200/v1'))).toBe(true);
    expect(own.has(req('http://[::1]:4200/v1'))).toBe(false);
    own.update({ event: 'listening', origin: 'http://0.0.0.0:4300' });
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '0.0.0.0']) expect(own.has(req(`http://${host}:4300/mcp`))).toBe(true);
    expect(own.has(req('http://api.openai.com:4300/v1'))).toBe(false);
  });
});
