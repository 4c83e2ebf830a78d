import { describe, expect, it } from 'vitest';
import { hostName, isLoopback, ListenerGuard, listenerToken, mintToken } from './index.ts';

describe('isLoopback and hostName', () => {
  it('knows loopback names in any case and bracket form, and nothing else', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', 'app.localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.5', 'localhost.evil.test', '128.0.0.1', '[::]', '127.example']) expect(isLoopback(h), h).toBe(false);
  });
  it('strips the port of a Host value, keeping IPv6 brackets', () => {
    expect(hostName('[::1]:8080')).toBe('[::1]');
    expect(hostName('Box.LAN:3000')).toBe('box.lan');
    expect(hostName('localhost')).toBe('localhost');
  });
});

describe('listenerToken', () => {
  it('keeps a given token, mints a fresh one beyond loopback only', () => {
    expect(listenerToken('0.0.0.0', 'mine')).toBe('mine');
    expect(listenerToken('127.0.0.1', undefined)).toBeUndefined();
    const minted = listenerToken('0.0.0.0', undefined);
    expect(minted).toMatch(/^[\w-]{43}$/);
    expect(listenerToken('0.0.0.0', undefined)).not.toBe(minted);
    expect(mintToken(24)).toMatch(/^[\w-]{32}$/);
  });
});

describe('ListenerGuard', () => {
  it('on a loopback bind refuses a foreign or missing Host unless allowed', () => {
    const guard = new ListenerGuard({ bindHost: '127.0.0.1', allowedHosts: ['box.lan'] });
    expect(guard.check({ host: '127.0.0.1:8080' })).toBeNull();
    expect(guard.check({ host: 'Box.lan:8080' })).toBeNull();
    expect(guard.check({ host: 'evil.test:8080' })).toEqual({ reason: 'host', host: 'evil.test:8080' });
    expect(guard.check({})).toEqual({ reason: 'host', host: '' });
  });
  it('beyond loopback checks Host only when asked to always', () => {
    expect(new ListenerGuard({ bindHost: '0.0.0.0' }).check({ host: 'anything:1' })).toBeNull();
    expect(new ListenerGuard({ bindHost: '0.0.0.0', hostCheck: 'always' }).check({ host: 'anything:1' })).toMatchObject({ reason: 'host' });
  });
  it('accepts no Origin, loopback, allowed and same origins; refuses the rest', () => {
    const guard = new ListenerGuard({ bindHost: '127.0.0.1', allowedOrigins: ['https://App.example/'] });
    const host = 'localhost:9000';
    for (const origin of [undefined, 'http://localhost:5173', 'https://app.example', 'http://localhost:9000']) expect(guard.check({ host, origin }), origin).toBeNull();
    for (const origin of ['http://evil.test', 'null', 'ftp://localhost', 'https://app.example.evil']) expect(guard.check({ host, origin }), origin).toEqual({ reason: 'origin', origin });
  });
  it('compares the bearer token exactly, only when asked for', () => {
    const guard = new ListenerGuard({ bindHost: '0.0.0.0', token: 'sekrit' });
    expect(guard.check({ host: 'a:1', authorization: 'Bearer sekrit' }, { token: true })).toBeNull();
    expect(guard.check({ host: 'a:1', authorization: 'bearer  sekrit ' }, { token: true })).toBeNull();
    for (const authorization of [undefined, 'Bearer sekri', 'Bearer sekrit2', 'Basic sekrit']) expect(guard.check({ host: 'a:1', authorization }, { token: true }), authorization).toEqual({ reason: 'token' });
    expect(guard.check({ host: 'a:1' })).toBeNull();
    expect(new ListenerGuard({ bindHost: '127.0.0.1' }).tokenAllowed(undefined)).toBe(true);
  });
});
