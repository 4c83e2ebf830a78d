import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { optionalPeer } from './index.ts';

describe('optionalPeer', () => {
  it('loads the class at the first new, and constructs it', () => {
    const Client = optionalPeer<typeof OpenAI>('openai', 'default');
    const client = new Client({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' });
    expect(typeof client.chat.completions.create).toBe('function');
    expect(client.baseURL).toBe('http://127.0.0.1:9/v1');
  });

  it('a package the project did not install fails at the first new with the install command, not at import', () => {
    const Missing = optionalPeer<new () => object>('ghostwire-no-such-peer', 'Client');
    expect(() => new Missing()).toThrow('ghostwire: this needs the ghostwire-no-such-peer package, an optional peer dependency: npm install ghostwire-no-such-peer');
    // Still refused on the next try (nothing half-loaded is kept).
    expect(() => new Missing()).toThrow(/npm install ghostwire-no-such-peer/);
  });
});
