import OpenAI from 'openai';
import { describe, expect } from 'vitest';
import { scenario } from '../scenario/index.ts';
import { test } from './test.ts';

describe('ghostwire/vitest test fixtures', () => {
  test('mockLLM answers the openai SDK for this test and journals the request', async ({ mockLLM }) => {
    mockLLM.use(scenario('hi').respondWithText('Hello from the fixture'));
    const client = new OpenAI({ apiKey: 'sk-test' });
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0].message.content).toBe('Hello from the fixture');
    expect(mockLLM.requests).toHaveLength(1);
    mockLLM.assertAllConsumed();
  });

  test('proxy and mcpServer: a proxy in front of a fixture server, called through an MCP client', async ({ proxy, mcpServer }) => {
    const db = mcpServer.stdio('sqlite');
    const { call, client } = await proxy.start({ mcpServers: { db } });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('call_tool');
    const servers = JSON.stringify(await call('list_mcp_servers'));
    expect(servers).toContain('db');
    const result = JSON.stringify(await call('call_tool', { server: 'db', tool: 'list_tables', arguments: {} }));
    expect(result).toMatch(/orders|customers|products/);
  });
});

describe('the mockLLM fixture under test.concurrent', () => {
  for (const word of ['alpha', 'beta', 'gamma']) {
    test.concurrent(`answers only its own test (${word})`, async ({ mockLLM, expect }) => {
      mockLLM.use(scenario(word).respondWithText(`I am ${word}`).withLatency(20));
      const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: word }] });
      expect(completion.choices[0].message.content).toBe(`I am ${word}`);
      expect(mockLLM.requests).toHaveLength(1);
    });
  }
});
