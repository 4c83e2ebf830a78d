/**
 * The rollout tool environment's overhead per tool step: `ToolEnvWrapper.step()` with an MCPTool
 * (find the <tool_call>, decode it, validate the params with ajv, pooled call, observation, rewards)
 * against a bare MCP SDK `Client.callTool()` to the same in-process Streamable HTTP server, in the same
 * run. Both are connected before measuring. Goal: < 1 ms overhead per step (medians; the machine is shared).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, expect, test } from 'vitest';
import { MCPTool } from '../src/rollout/mcp-tool.ts';
import { QAEnv } from '../src/rollout/qa-env.ts';
import { startTestMcpServer } from '../src/rollout/testing/mcp-test-server.ts';
import { ToolEnvWrapper } from '../src/rollout/tool-env-wrapper.ts';

const server = await startTestMcpServer();
const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
const env = new ToolEnvWrapper(new QAEnv({ items: [{ id: 'q', question: 'What is 20 + 22?', answers: ['42'] }] }), [new MCPTool({ serverUrl: server.url })], {
  toolSuccessReward: 0.1,
  maxToolUses: null, // every measured step is a tool step (the default limit, as in GEM, is 10)
});
await env.reset();
// Warm both paths (JIT, sockets) so neither side pays for it inside the measurement.
for (let i = 0; i < 200; i++) {
  await client.callTool({ name: 'echo', arguments: { text: '42' } });
  await env.step('<tool_call>{"tool_name": "echo", "tool_params": {"text": "42"}}</tool_call>');
}
const ACTION = 'Let me compute. <tool_call>{"tool_name": "echo", "tool_params": {"text": "42"}}</tool_call>';

afterAll(async () => {
  await env.close();
  await client.close();
  await server.close();
});

test('tool step through ToolEnvWrapper + MCPTool vs a bare callTool (goal < 1 ms overhead)', async ({ bench, annotate }) => {
  const BASELINE = 'bare SDK callTool (baseline)';
  const WRAPPED = 'ToolEnvWrapper.step with MCPTool';
  const results = await bench.compare(
    bench(BASELINE, async () => {
      await client.callTool({ name: 'echo', arguments: { text: '42' } });
    }),
    bench(WRAPPED, async () => {
      const step = await env.step(ACTION);
      if (step.observation !== '<information>42</information>') throw new Error(step.observation);
    }),
  );
  const baseline = results.get(BASELINE).latency.p50 ?? results.get(BASELINE).latency.mean;
  const wrapped = results.get(WRAPPED).latency.p50 ?? results.get(WRAPPED).latency.mean;
  const line = `median: bare callTool ${baseline.toFixed(3)} ms, wrapped step ${wrapped.toFixed(3)} ms; overhead ${(wrapped - baseline).toFixed(3)} ms per tool step (goal < 1 ms)`;
  console.info(line);
  await annotate(line);
  expect(wrapped - baseline).toBeLessThan(1);
});
