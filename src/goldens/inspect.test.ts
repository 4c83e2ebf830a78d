import { describe, expect, it } from 'vitest';
import { inspectGolden } from './inspect.ts';
import { sampleGolden, sampleInteraction } from './testing/golden.ts';

const url = 'https://api.openai.com/v1/chat/completions';
const user = { role: 'user', content: 'Weather in Paris?' };
const assistantCall = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] };

/** A conversation: tool call, rate-limit error, retry that recovers with the final answer. */
const conversation = sampleGolden({
  input: { prompt: 'Weather in Paris?' },
  interactions: [
    sampleInteraction({
      request: { method: 'POST', url, headers: {}, body: { model: 'gpt-4o', messages: [user] } },
      summary: { text: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], finishReason: 'tool_calls' },
      usage: { inputTokens: 20, outputTokens: 8 },
      durationMs: 30,
    }),
    sampleInteraction({
      request: { method: 'POST', url, headers: {}, body: { model: 'gpt-4o', messages: [user, assistantCall, { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny"}' }] } },
      response: { status: 429, headers: {}, body: { error: { message: 'Rate limit reached', type: 'rate_limit_exceeded' } } },
      summary: null,
      usage: null,
      durationMs: 5,
    }),
    sampleInteraction({
      request: { method: 'POST', url, headers: {}, body: { model: 'gpt-4o', messages: [user, assistantCall, { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny"}' }] } },
      summary: { text: 'Sunny in Paris.', toolCalls: [], finishReason: 'stop' },
      usage: { inputTokens: 35, outputTokens: 5 },
      durationMs: 40,
    }),
  ],
});

describe('inspectGolden', () => {
  it('prints the conversation step by step: tool calls with arguments and results, tokens, timings, error and recovery', () => {
    const text = inspectGolden(conversation, { file: 'goldens/agent/answers.json' });
    expect(text).not.toMatch(/\x1b\[/);
    const lines = text.split('\n');
    const at = (needle: string): number => lines.findIndex((l) => l.includes(needle));
    expect(at('golden goldens/agent/answers.json')).toBe(0);
    expect(text).toContain('── step 1 · POST api.openai.com/v1/chat/completions · 200 · json · 30 ms · 20 in / 8 out');
    expect(text).toContain('user: Weather in Paris?');
    expect(text).toContain('assistant → tool call get_weather {"city":"Paris"}  (call_1)');
    expect(text).toContain('tool result (call_1): {"sky":"sunny"}');
    expect(text).toContain('✗ error 429: Rate limit reached');
    expect(text).toContain('↺ recovered');
    expect(text).toContain('assistant: Sunny in Paris.');
    expect(text).toContain('total    3 call(s) · tokens 55 in / 13 out (68) · 75 ms');
    // The order tells the story.
    expect(at('tool call get_weather')).toBeLessThan(at('error 429'));
    expect(at('error 429')).toBeLessThan(at('↺ recovered'));
    expect(at('↺ recovered')).toBeLessThan(at('Sunny in Paris.'));
    // The tool result is shown once, where it first appears.
    expect(lines.filter((l) => l.includes('tool result')).length).toBe(1);
  });

  it('shows a stream that failed midway: the text that arrived, then the error its event carried', () => {
    const golden = sampleGolden({
      input: { prompt: 'hi' },
      interactions: [
        sampleInteraction({
          request: { method: 'POST', url, headers: {}, body: { model: 'gpt-4o', messages: [user], stream: true } },
          summary: { text: 'Partly', toolCalls: [], finishReason: null, error: { message: 'Overloaded', type: 'server_error', status: null } },
          usage: null,
          durationMs: 12,
        }),
      ],
    });
    const lines = inspectGolden(golden, { file: 'g.json' }).split('\n');
    const text = lines.findIndex((l) => l.includes('assistant: Partly'));
    expect(text).toBeGreaterThan(0);
    expect(lines[text + 1]).toBe('  ✗ the stream failed: server_error: Overloaded');
  });

  it('marks a failing tool result and the later successful one as the recovery point', () => {
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'fetch', arguments: '{}' } }] });
    const failing = [user, call('c1'), { role: 'tool', tool_call_id: 'c1', content: 'Error: backend unavailable' }];
    const golden = sampleGolden({
      interactions: [
        sampleInteraction({ request: { method: 'POST', url, headers: {}, body: { model: 'gpt-4o', messages: failing } }, summary: { text: '', toolCalls: [{ id: 'c2', name: 'fetch', arguments: {} }], finishReason: 'tool_calls' } }),
        sampleInteraction({ request: { method: 'POST', url, headers: {}, body: { model: 'gpt-4o', messages: [...failing, call('c2'), { role: 'tool', tool_call_id: 'c2', content: '{"value":1}' }] } } }),
      ],
    });
    const lines = inspectGolden(golden).split('\n');
    const failedAt = lines.findIndex((l) => l.includes('tool result (c1) ✗ tool error: Error: backend unavailable'));
    const recoveredAt = lines.findIndex((l) => l.includes('↺ recovered: a later tool call succeeded'));
    expect(failedAt).toBeGreaterThan(0);
    expect(recoveredAt).toBeGreaterThan(lines.findIndex((l) => l.includes('tool result (c2): {"value":1}')));
  });

  it('uses ANSI colour only when asked (a terminal)', () => {
    expect(inspectGolden(conversation, { color: true })).toMatch(/\x1b\[31m\s*✗ error 429/);
  });
});

describe('inspectGolden: expected outputs', () => {
  it('shows each expected output with its value in short, not a bare list of names', () => {
    const golden = { ...conversation, expected: { run: { answer: 'Sunny in Paris.', calls: 1 }, long: 'x'.repeat(500) } };
    const lines = inspectGolden(golden, { file: 'goldens/agent/answers.json' }).split('\n');
    const head = lines.findIndex((l) => l.startsWith('expected outputs'));
    expect(head).toBeGreaterThan(0);
    expect(lines[head + 1]).toBe('  run: {"answer":"Sunny in Paris.","calls":1}');
    expect(lines[head + 2].startsWith('  long: "xxx')).toBe(true);
    expect(lines[head + 2].length).toBeLessThanOrEqual(2 + 'long: '.length + 120);
    expect(lines[head + 2].endsWith('…')).toBe(true);
  });
});
