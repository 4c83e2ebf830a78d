import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import { capturingFetch } from '../providers/testing/capture.ts';
import { GeminiProvider } from './provider-gemini.ts';
import type { GhostMessage } from './provider.ts';

// mcpGhost's Gemini provider in a Gemini 3 function-calling loop: it passes each call back with the
// thought signature it came with, so ghostwire's own Gemini 3 signature rule lets the loop through.
describe('GeminiProvider and thought signatures', () => {
  it('passes a Gemini 3 call back with its signature (the mock refuses the loop without it)', async () => {
    const mock = createMockLLM({
      scenarios: [{ name: 'g', steps: [{ respond: { reasoning: 'Look it up.', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] } }, { match: { toolResults: ['lookup'] }, respond: { text: 'Found.' } }] }],
    });
    const { fetch, exchanges } = capturingFetch(mock.handle);
    const llm = new GeminiProvider({ provider: 'gemini', apiKey: 'k', fetch: fetch as typeof globalThis.fetch, defaultModel: 'gemini-3-pro-preview', retry: { maxRetries: 0 } });
    const tools = [{ name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: { q: { type: 'string' } } } }];
    const messages: GhostMessage[] = [{ role: 'user', content: 'Find x' }];
    const first = await llm.createCompletion(messages, tools);
    expect(first.toolCalls.map((c) => c.name)).toEqual(['lookup']);
    messages.push({ role: 'assistant', content: first.text, toolCalls: first.toolCalls }, { role: 'tool', content: 'x is 1', toolCallId: first.toolCalls[0].id, toolName: 'lookup' });
    const second = await llm.createCompletion(messages, tools);
    expect(second.text).toBe('Found.');
    const sent = JSON.parse(exchanges[1].requestBody);
    expect(sent.contents[1].parts[0].thoughtSignature).toBeTruthy();
    expect(mock.requests.map((r) => r.violation)).toEqual([undefined, undefined]);
  });
});
