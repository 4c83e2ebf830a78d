import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpScenario } from './builder.ts';
import { createMockMCP, type MockMCP } from './mock-mcp.ts';

const mocks: MockMCP[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

async function connect(source: Parameters<typeof createMockMCP>[0], capabilities = {}): Promise<{ mock: MockMCP; client: Client }> {
  const mock = createMockMCP(source);
  mocks.push(mock);
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities });
  clients.push(client);
  await client.connect(await mock.connect());
  return { mock, client };
}

const text = (r: unknown) => ((r as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

describe('createMockMCP over an in-memory pair', () => {
  it('lists tools as declared and answers by the arguments (exact, contains, regex, JSON path), in order', async () => {
    const { mock, client } = await connect(
      mcpScenario('m')
        .serverInfo({ name: 'weather-mock', version: '2.0.0' })
        .tool('forecast', { description: 'Forecast', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }, (t) =>
          t
            .when({ city: 'Paris' }).text('sunny in {{city}}')
            .when({ city: { contains: 'York' } }).text('rain in {{arguments.city}}').times(2)
            .when({ city: { regex: '^l', flags: 'i' } }).text('fog')
            .next().whenPath('$.opts.units[0]', 'C').text('celsius')
            .whenExactly({ city: 'Oslo', days: 2 }).text('snow'),
        ),
    );
    expect(client.getServerVersion()).toMatchObject({ name: 'weather-mock', version: '2.0.0' });
    const { tools } = await client.listTools();
    expect(tools).toEqual([{ name: 'forecast', description: 'Forecast', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }]);
    expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Paris' } }))).toBe('sunny in Paris');
    expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'New York' } }))).toBe('rain in New York');
    expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'York' } }))).toBe('rain in York');
    expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } }))).toBe('fog');
    expect(text(await client.callTool({ name: 'forecast', arguments: { opts: { units: ['C'] } } }))).toBe('celsius');
    expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 2 } }))).toBe('snow');
    expect(mock.calls.map((c) => c.answer)).toEqual([0, 1, 1, 2, 3, 4]);
    mock.assertAllConsumed();
  });

  it('explains a call no answer matches: which constraint each answer failed', async () => {
    const { mock, client } = await connect(mcpScenario('m').tool('forecast', {}, (t) => t.when({ city: 'Paris' }).text('x').when({ days: { equals: 3 } }).text('y')));
    await expect(client.callTool({ name: 'forecast', arguments: { city: 'Rome', days: 2 } })).rejects.toThrow(
      /no answer of tool "forecast" matches[\s\S]*answers\[0\]: arguments\.city: expected "Paris", got "Rome"[\s\S]*answers\[1\]: arguments\.days: expected 3, got 2/,
    );
    await client.callTool({ name: 'forecast', arguments: { city: 'Paris' } });
    await expect(client.callTool({ name: 'forecast', arguments: { city: 'Paris' } })).rejects.toThrow(/answers\[0\]: consumed \(answered 1 call\)/);
    expect(mock.calls[0]).toMatchObject({ tool: 'forecast', answer: null, nearMisses: [{ answer: 0 }, { answer: 1 }] });
    expect(() => mock.assertAllConsumed()).toThrow(/tool "forecast" answers\[1\] \(used 0 of 1\)/);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Tool nope not found/);
  });

  it('answers every kind of content, structured content checked against the outputSchema, isError and protocol errors', async () => {
    const { client } = await connect(
      mcpScenario('m')
        .tool('media', {}, (t) =>
          t.content(
            { type: 'image', data: 'aGk=', mimeType: 'image/png' },
            { type: 'audio', data: 'aGk=', mimeType: 'audio/wav' },
            { type: 'resource', resource: { uri: 'test://r', text: 'embedded' } },
            { type: 'resource_link', uri: 'test://l', name: 'link' },
          ),
        )
        .tool('stats', { outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }, (t) => t.structured({ n: 3 }).next().structured({ n: 'three' }))
        .tool('fails', {}, (t) => t.isError('backend down').next().error(-32603, 'exploded', { why: 'test' })),
    );
    const media = await client.callTool({ name: 'media', arguments: {} });
    expect((media.content as Array<{ type: string }>).map((c) => c.type)).toEqual(['image', 'audio', 'resource', 'resource_link']);
    const stats = await client.callTool({ name: 'stats', arguments: {} });
    expect(stats.structuredContent).toEqual({ n: 3 });
    expect(text(stats)).toBe('{"n":3}');
    // The SDK client validates structured content against the outputSchema it listed.
    await client.listTools();
    await expect(client.callTool({ name: 'stats', arguments: {} })).rejects.toThrow(/Structured content does not match/);
    const failed = await client.callTool({ name: 'fails', arguments: {} });
    expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'backend down' }] });
    await expect(client.callTool({ name: 'fails', arguments: {} })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('exploded') });
  });

  it('sends progress (with the caller\'s token) and log messages before the result, after latencyMs', async () => {
    const { client } = await connect(
      mcpScenario('m').tool('job', {}, (t) => t.log('info', 'starting {{name}}', 'jobs').progress({ progress: 1, total: 2 }, { progress: 2, total: 2, message: 'done', delayMs: 5 }).latency(60).text('token {{progressToken}}')),
    );
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    const progress: unknown[] = [];
    const started = performance.now();
    const result = await client.request({ method: 'tools/call', params: { name: 'job', arguments: { name: 'build' }, _meta: { progressToken: 'tok-1' } } }, CallToolResultSchema, {
      onprogress: (p) => progress.push(p),
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    // The SDK replaces the progress token with its own (the request id); the answer echoes what arrived.
    expect(text(result)).toMatch(/^token \d+$/);
    expect(progress).toEqual([{ progress: 1, total: 2 }, { progress: 2, total: 2, message: 'done' }]);
    expect(logs).toEqual([{ level: 'info', logger: 'jobs', data: 'starting build' }]);
  });

  it('filters log messages below the level the client set', async () => {
    const { client } = await connect(mcpScenario('m').tool('job', {}, (t) => t.always().log('debug', 'noise').log('error', 'bad').text('ok')));
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'job', arguments: {} });
    expect(logs).toEqual(['bad']);
  });

  it('asks the client for sampling and elicitation, uses the answers and checks them', async () => {
    const { mock, client } = await connect(
      mcpScenario('m').tool('summarize', {}, (t) =>
        t
          .request('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize {{topic}}' } }], maxTokens: 50 }, { '$.role': 'assistant' })
          .request('elicitation/create', { message: 'Confirm?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { '$.action': 'accept', '$.content.ok': true })
          .text('{{responses.0.content.text}} / {{responses.1.action}}'),
      ),
      { sampling: {}, elicitation: {} },
    );
    const seen: string[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      seen.push((req.params.messages[0].content as { text: string }).text);
      return { role: 'assistant', content: { type: 'text', text: 'a summary' }, model: 'm' };
    });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    expect(text(await client.callTool({ name: 'summarize', arguments: { topic: 'MCP' } }))).toBe('a summary / decline');
    expect(seen).toEqual(['Summarize MCP']);
    expect(mock.failures).toEqual(['tool "summarize" requests[1]: response to elicitation/create $.action: expected "accept", got "decline"', 'tool "summarize" requests[1]: response to elicitation/create $.content.ok: expected true, got nothing']);
    expect(() => mock.assertAllConsumed()).toThrow(/checks on the client's answers failed/);
  });

  it('changes the tool list after the Nth call and tells every connected client', async () => {
    const { mock, client } = await connect('fixtures/mcp/list-changed.json');
    const other = new Client({ name: 'other', version: '1' });
    clients.push(other);
    await other.connect(await mock.connect());
    let notified = 0;
    other.setNotificationHandler(ToolListChangedNotificationSchema, () => void notified++);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search']);
    expect(text(await client.callTool({ name: 'search', arguments: { q: 'x' } }))).toBe('v1 results for x');
    await expect.poll(() => notified).toBe(1);
    expect((await other.listTools()).tools.map((t) => t.name)).toEqual(['search_v2']);
    await expect(client.callTool({ name: 'search', arguments: { q: 'x' } })).rejects.toThrow(/Tool search not found/);
  });

  it('crashes on the call after N: the connection closes and the call never gets an answer', async () => {
    const { mock, client } = await connect('fixtures/mcp/crash-after-2.json');
    let closed = false;
    client.onclose = () => void (closed = true);
    await client.callTool({ name: 'echo', arguments: { text: 'a' } });
    await client.callTool({ name: 'echo', arguments: { text: 'b' } });
    await expect(client.callTool({ name: 'echo', arguments: { text: 'c' } })).rejects.toThrow(/Connection closed/);
    expect(closed).toBe(true);
    expect(mock.calls).toHaveLength(2);
  });

  it('hangs until the client gives up, and a closing mock releases the hung call', async () => {
    const { mock, client } = await connect('fixtures/mcp/hang.json');
    await expect(client.callTool({ name: 'wait_forever', arguments: {} }, undefined, { timeout: 100 })).rejects.toThrow(/timed out/i);
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    const pending = client.callTool({ name: 'wait_forever', arguments: {} });
    await expect.poll(() => mock.journal.entries.filter((e) => e.method === 'tools/call').length).toBe(4);
    await mock.close();
    await expect(pending).rejects.toThrow();
  });

  it('counts `after` rules per tool when they name one: hang after N calls of that tool only', async () => {
    const { mock, client } = await connect(
      mcpScenario('m')
        .tool('slow', {}, (t) => t.always().text('ok'))
        .tool('fast', {}, (t) => t.always().text('ok'))
        .after(1, { tool: 'slow', hang: true }),
    );
    await client.callTool({ name: 'fast', arguments: {} });
    await client.callTool({ name: 'slow', arguments: {} });
    await client.callTool({ name: 'fast', arguments: {} });
    await expect(client.callTool({ name: 'slow', arguments: {} }, undefined, { timeout: 80 })).rejects.toThrow(/timed out/i);
    expect(text(await client.callTool({ name: 'fast', arguments: {} }))).toBe('ok');
    expect(mock.calls.map((c) => c.tool)).toEqual(['fast', 'slow', 'fast', 'fast']);
  });

  it('answers protocol errors for unknown prompts and resources declared with an error', async () => {
    const { client } = await connect(
      mcpScenario('m')
        .resource({ uri: 'db://locked', name: 'locked', error: { code: -32001, message: 'locked by another process' } })
        .prompt({ name: 'p', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }),
    );
    await expect(client.readResource({ uri: 'db://locked' })).rejects.toMatchObject({ code: -32001, message: expect.stringContaining('locked by another process') });
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/Prompt nope not found/);
    // Declared only resources and prompts: no tools capability, so tools/list is not a method here.
    expect(client.getServerCapabilities()?.tools).toBeUndefined();
    await expect(client.listTools()).rejects.toThrow(/Method not found|does not support tools/);
  });

  it('serves resources, templates, prompts and completions', async () => {
    const { client, mock } = await connect('fixtures/mcp/conformance.json');
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://watched-resource']);
    expect((await client.readResource({ uri: 'test://static-binary' })).contents[0]).toMatchObject({ blob: expect.any(String), mimeType: 'image/png' });
    const templated = await client.readResource({ uri: 'test://template/123/data' });
    expect(JSON.parse((templated.contents[0] as { text: string }).text)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
    await expect(client.readResource({ uri: 'test://missing' })).rejects.toMatchObject({ code: -32002 });
    await client.subscribeResource({ uri: 'test://watched-resource' });
    expect([...mock.subscriptions]).toEqual(['test://watched-resource']);
    const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'A', arg2: 'B' } });
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='A', arg2='B'" });
    await expect(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'A' } })).rejects.toThrow(/missing required arguments arg2/);
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } });
    expect(completion.completion).toEqual({ values: ['testValue1', 'testValue2'], total: 2, hasMore: false });
  });

  it('journals every message both ways, naming the method results answer; reset() starts over', async () => {
    const { mock, client } = await connect(mcpScenario('m').tool('t', {}, (t) => t.text('x')));
    await client.callTool({ name: 't', arguments: { a: 1 } });
    const summary = mock.journal.entries.map((e) => `${e.direction} ${e.kind} ${e.method}`);
    expect(summary).toEqual(['in request initialize', 'out result initialize', 'in notification notifications/initialized', 'in request tools/call', 'out result tools/call']);
    expect(mock.journal.entries[3].message).toMatchObject({ params: { name: 't', arguments: { a: 1 } } });
    mock.assertAllConsumed();
    mock.reset();
    expect(mock.journal.entries).toEqual([]);
    expect(mock.unconsumed()).toEqual(['tool "t" answers[0] (used 0 of 1)']);
  });

  it('keeps the journal under its byte limit, dropping the oldest entries', async () => {
    const mock = createMockMCP(mcpScenario('m').tool('t', {}, (t) => t.always().text('y'.repeat(1000))), { journalLimitBytes: 5000 });
    mocks.push(mock);
    const client = new Client({ name: 'c', version: '1' });
    clients.push(client);
    await client.connect(await mock.connect());
    for (let i = 0; i < 20; i++) await client.callTool({ name: 't', arguments: {} });
    const bytes = mock.journal.entries.reduce((n, e) => n + JSON.stringify(e.message).length, 0);
    expect(bytes).toBeLessThanOrEqual(5000);
    expect(mock.journal.dropped).toBeGreaterThan(0);
    expect(mock.journal.entries.at(-1)?.method).toBe('tools/call');
  });
});
