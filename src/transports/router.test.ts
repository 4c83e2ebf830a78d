import { describe, expect, it } from 'vitest';
import { createMockLLM } from './mock-llm.ts';
import { createRouter } from './router.ts';
import { SessionRegistry } from './sessions.ts';

const chat = (url: string) =>
  new Request(url, { method: 'POST', headers: { authorization: 'Bearer sk' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }) });

describe('SessionRegistry.route', () => {
  it('splits the session prefix from the path', () => {
    expect(SessionRegistry.route('/s/abc/v1/chat/completions')).toEqual({ id: 'abc', path: '/v1/chat/completions' });
    expect(SessionRegistry.route('/s/abc')).toEqual({ id: 'abc', path: '/' });
    expect(SessionRegistry.route('/v1/messages')).toEqual({ id: 'default', path: '/v1/messages' });
  });
});

describe('createRouter (Fetch)', () => {
  it('routes the default session, sessions by prefix, the admin API, and unknown sessions', async () => {
    const sessions = new SessionRegistry(createMockLLM({ scenarios: [{ name: 'd', steps: [{ respond: { text: 'default' } }] }] }));
    const s = sessions.create({ id: 'x1', scenarios: [{ name: 's', steps: [{ respond: { text: 'session' } }] }] });
    const route = createRouter(sessions);
    expect((await (await route(chat('http://h/v1/chat/completions'))).json()).choices[0].message.content).toBe('default');
    expect((await (await route(chat('http://h/s/x1/v1/chat/completions'))).json()).choices[0].message.content).toBe('session');
    expect(s.mock.requests[0].path).toBe('/v1/chat/completions');
    const list = await (await route(new Request('http://h/__ghostwire/sessions'))).json();
    expect(list.sessions.map((x: { id: string; url: string }) => [x.id, x.url])).toEqual([['default', 'http://h/s/default'], ['x1', 'http://h/s/x1']]);
    const missing = await route(chat('http://h/s/nope/v1/chat/completions'));
    expect(missing.status).toBe(404);
    expect(() => sessions.delete('default')).toThrow(/cannot be deleted/);
  });
});

describe('createRouter: malformed percent-escapes never make a 500', () => {
  it('answers a session id or a model id that does not decode with a 404', async () => {
    const route = createRouter(new SessionRegistry(createMockLLM({ scenarios: [{ name: 'd', steps: [{ respond: { text: 'x' } }] }] })));
    const session = await route(new Request('http://h/s/%/v1/models', { headers: { authorization: 'Bearer sk' } }));
    expect(session.status).toBe(404);
    expect((await session.json()).error.code).toBe('unknown_session');
    const model = await route(new Request('http://h/v1/models/%E0%A4%A', { headers: { authorization: 'Bearer sk' } }));
    expect(model.status).toBe(404);
    expect((await model.json()).error.code).toBe('model_not_found');
  });
});
