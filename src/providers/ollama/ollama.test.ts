import { Ollama } from 'ollama';
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../goldens/recorder.ts';
import { Redactor } from '../../goldens/redact.ts';
import { Replayer } from '../../goldens/replayer.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';

function setup(scenarios: ScenarioInput[]) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  return { mock, exchanges, ollama: new Ollama({ host: 'http://127.0.0.1:11434', fetch }) };
}

const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describe('Ollama through the ollama SDK', () => {
  it('streams /api/chat as NDJSON: one JSON object per line, the last done with its counts', async () => {
    const { ollama, exchanges } = setup([{ name: 's', steps: [{ respond: { text: 'Hello there', stream: { chunkSize: 4 }, usage: { inputTokens: 5, outputTokens: 3 } } }] }]);
    const parts: string[] = [];
    for await (const part of await ollama.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: true })) parts.push(part.message.content);
    expect(parts.join('')).toBe('Hello there');
    expect(exchanges[0].headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await exchanges[0].body).split('\n');
    expect(lines.at(-1)).toBe('');
    const objects = lines.slice(0, -1).map((l) => JSON.parse(l));
    expect(objects.map((o) => o.done)).toEqual([false, false, false, true]);
    expect(objects.at(-1)).toMatchObject({ done_reason: 'stop', prompt_eval_count: 5, eval_count: 3, model: 'llama3.2' });
  });

  it('answers /api/generate, streamed and not, and /api/embed with the model’s own size', async () => {
    const { ollama } = setup([{ name: 'g', steps: [{ respond: { text: 'Because of Rayleigh scattering.' }, consume: false }] }]);
    const whole = await ollama.generate({ model: 'llama3.2', prompt: 'Why is the sky blue?' });
    expect(whole).toMatchObject({ response: 'Because of Rayleigh scattering.', done: true });
    let text = '';
    for await (const part of await ollama.generate({ model: 'llama3.2', prompt: 'Why?', stream: true })) text += part.response;
    expect(text).toBe('Because of Rayleigh scattering.');
    const embedded = await ollama.embed({ model: 'nomic-embed-text', input: ['first', 'second'] });
    expect(embedded.embeddings).toHaveLength(2);
    expect(embedded.embeddings[0]).toHaveLength(768);
  });

  it('lists the scenario models as /api/tags and answers /api/show', async () => {
    const { ollama } = setup([{ name: 'm', steps: [{ match: { model: 'llama3.2' }, respond: { text: 'x' } }] }]);
    expect((await ollama.list()).models.map((m) => m.name)).toEqual(['llama3.2:latest']);
    expect(await ollama.show({ model: 'llama3.2' })).toMatchObject({ capabilities: ['completion', 'tools'] });
    const missing = await ollama.show({ model: 'nope' }).catch((e: unknown) => e);
    expect((missing as { status_code: number }).status_code).toBe(404);
  });

  it('maps tool results (tool_name, no ids) back to the call, so expectToolResults holds', async () => {
    const { ollama, mock } = setup([
      {
        name: 'loop',
        steps: [
          { respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true } },
          { match: { toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris.' } },
        ],
      },
    ]);
    const first = await ollama.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'weather?' }], tools: [weather] });
    const call = first.message.tool_calls![0];
    expect(call.function).toEqual({ name: 'get_weather', arguments: { city: 'Paris' } });
    const second = await ollama.chat({
      model: 'llama3.2',
      tools: [weather],
      messages: [{ role: 'user', content: 'weather?' }, first.message, { role: 'tool', tool_name: 'get_weather', content: '{"sky":"sunny"}' }],
    });
    expect(second.message.content).toBe('Sunny in Paris.');
    const tool = mock.requests[1].request!.messages.find((m) => m.role === 'tool');
    expect(tool?.toolCallId).toMatch(/^call_/);
  });

  it('paces and cuts NDJSON lines like every stream (chunkDelayMs, disconnectAfterChunks)', async () => {
    const mock = createMockLLM({
      scenarios: [{ name: 'slow', steps: [{ respond: { text: 'abcdef', stream: { chunkSize: 2, chunkDelayMs: 30 } } }, { respond: { text: 'abcdef', stream: { chunkSize: 2, disconnectAfterChunks: 2 } } }] }],
    });
    // Straight to the mock, no capturing tee: a tee that errors drops the lines still queued in it.
    const ollama = new Ollama({ host: 'http://127.0.0.1:11434', fetch: (input, init) => mock.handle(new Request(input, init)) });
    const started = performance.now();
    const arrivals: number[] = [];
    for await (const part of await ollama.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true })) if (part.message.content) arrivals.push(performance.now() - started);
    expect(arrivals.at(-1)! - arrivals[0]).toBeGreaterThanOrEqual(50);
    const seen: string[] = [];
    const cut = await (async () => {
      for await (const part of await ollama.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true })) seen.push(part.message.content);
    })().catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(Error);
    expect(seen).toEqual(['ab', 'cd']);
  });

  it('records an NDJSON stream from the real port as a golden and replays it byte-exact', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'g', steps: [{ respond: { text: 'Recorded answer, line by line.', stream: { chunkSize: 5 } } }] }] });
    try {
      const recorder = new Recorder(new Redactor());
      const body = JSON.stringify({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: true });
      const live = await recorder.handle(new Request(`${server.url}/api/chat`, { method: 'POST', body }), (r) => fetch(r));
      const liveText = await live.text();
      const [interaction] = await recorder.settled();
      expect(interaction.provider).toBe('ollama');
      expect(interaction.response.framing).toBe('ndjson');
      expect(interaction.response.events!.map((e) => e.data).join('')).toBe(liveText);
      expect(interaction.summary).toMatchObject({ text: 'Recorded answer, line by line.', finishReason: 'stop' });
      const replayer = new Replayer([interaction], { file: 'x.json', redactor: new Redactor() });
      const ollama = new Ollama({ host: server.url, fetch: (input, init) => replayer.serve(new Request(input, init)) });
      await server.close();
      let text = '';
      for await (const part of await ollama.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: true })) text += part.message.content;
      expect(text).toBe('Recorded answer, line by line.');
    } finally {
      await server.close().catch(() => undefined);
    }
  });
});
