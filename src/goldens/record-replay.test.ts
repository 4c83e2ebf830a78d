import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import { parseGolden } from './store.ts';
import { runWeatherAgent, weatherScenario } from './testing/conversation.ts';
import { tempRuntime } from './testing/runtime.ts';

const TEST_FILE_NAME = 'agent.test.ts';

describe('record then replay (openai SDK, streamed tool calls)', () => {
  it('records against the mock server as upstream and replays with the upstream stopped', async () => {
    const server = await startMockLLMServer({ scenarios: [weatherScenario] });
    const { runtime, root } = tempRuntime('record');
    const testFile = join(root, TEST_FILE_NAME);
    const recording = runtime.session(testFile, 'weather > answers');
    recording.setUpstream(server.url);
    await recording.intercept();
    const client = new OpenAI({ apiKey: 'sk-test-key-not-secret', maxRetries: 0 });
    const recorded = await runWeatherAgent(client);
    recording.setInput({ prompt: 'What is the weather in Paris?' });
    expect(recording.expect('output', recorded, { equals: Object.is }).pass).toBe(true);
    const outcome = await runtime.finish(testFile, 'weather > answers', true);
    await server.close();
    expect(outcome?.action).toBe('written');

    const text = readFileSync(recording.file, 'utf8');
    const golden = parseGolden(text, recording.file);
    expect(recording.file).toBe(join(root, 'goldens', 'agent', 'weather-answers.json'));
    expect(golden.interactions).toHaveLength(2);
    expect(golden.interactions[0].request.headers.authorization).toBe('[REDACTED]');
    expect(text).not.toContain('sk-test-key-not-secret');
    expect(golden.interactions[0].summary?.toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(golden.interactions[1].summary?.text).toBe('It is sunny in Paris, 21°C.');
    expect(golden.interactions[1].response.events!.length).toBeGreaterThan(3);
    expect(golden.interactions[1].usage).toEqual({ inputTokens: 35, outputTokens: 9 });
    expect(golden.model).toBe('gpt-4o');

    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    const replay = replayRuntime.session(testFile, 'weather > answers');
    await replay.intercept();
    const replayed = await runWeatherAgent(client);
    expect(replayed).toEqual(recorded);
    expect(replay.expect('output', replayed, { equals: Object.is }).pass).toBe(true);
    expect((await replayRuntime.finish(testFile, 'weather > answers', true))?.action).toBe('replayed');
  });
});
