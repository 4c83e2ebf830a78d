import { GOLDEN_FORMAT_VERSION, type GoldenFile, type Interaction } from '../schema.ts';

/** A small valid golden for tests; override any field. */
export function sampleGolden(overrides: Partial<GoldenFile> = {}): GoldenFile {
  return {
    formatVersion: GOLDEN_FORMAT_VERSION,
    test: { file: 'src/agent.test.ts', name: 'agent > answers' },
    recordedAt: '2026-11-01T10:00:00.000Z',
    provider: 'openai',
    model: 'gpt-4o',
    input: { prompt: 'hi' },
    interactions: [sampleInteraction()],
    expected: { output: { answer: 'hello', id: 'run_1' } },
    ...overrides,
  };
}

/** A JSON chat completion exchange. */
export function sampleInteraction(overrides: Partial<Interaction> = {}): Interaction {
  return {
    provider: 'openai',
    request: {
      method: 'POST',
      url: 'https://api.openai.com/v1/chat/completions',
      headers: { authorization: '[REDACTED]', 'content-type': 'application/json' },
      body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
    },
    summary: { text: 'hello', toolCalls: [], finishReason: 'stop' },
    usage: { inputTokens: 3, outputTokens: 1 },
    durationMs: 12,
    ...overrides,
  };
}
