/**
 * ROLL's own example config (examples/qwen3_agentic_gem/gem_math_hotpotqa.yaml with its Hydra
 * defaults list pulling in config/traj_envs_gem_qa.yaml), committed unchanged, loads and runs:
 * its MCP environment against an SSE MCP server, as ROLL's MCPTool would reach it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRolloutConfig } from './config.ts';
import { createEnvRegistry, makeRolloutEnv } from './make-env.ts';
import { McpClientPool } from './mcp-pool.ts';
import { QAEnv } from './qa-env.ts';
import { startTestMcpServer, type TestMcpServer } from './testing/mcp-test-server.ts';
import { createToolRegistry } from './tool-registry.ts';

const PRIMARY = join(import.meta.dirname, '../../fixtures/rollout/roll/qwen3_agentic_gem/gem_math_hotpotqa.yaml');
const SERVER_URL = 'gem_qa.HotpotQA_with_mcp.tool_wrapper.tool_configs.0.tool_args.server_url';

let server: TestMcpServer;
beforeAll(async () => {
  server = await startTestMcpServer({ transport: 'sse' });
});
afterAll(() => server.close());

describe("ROLL's gem_math_hotpotqa.yaml, unchanged", () => {
  it('composes the defaults list, resolves the interpolations, keeps ROLL-only keys', async () => {
    const { config } = await loadRolloutConfig(PRIMARY, { env: {} });
    const mcp = config.custom_envs.HotpotQA_with_mcp;
    expect(mcp).toEqual({
      env_type: 'roll_qa',
      max_steps: 10,
      // The primary config's own value wins over the included file's 128 (_self_ last, as in Hydra 1.1+).
      max_tokens_per_step: 4096,
      env_manager_cls: 'roll.pipeline.agentic.env_manager.traj_env_manager.TrajEnvManager',
      agent_system_template: "You're a helpful assistant.",
      agent_template: '{observation}',
      max_env_step_concurrent: 10,
      env_config: { dataset_name: 'axon-rl/HotpotQA', split: 'train', question_key: 'problem', answer_key: 'answer' },
      tool_wrapper: {
        wrapper_args: { tool_reward: 0, tool_success_reward: 0.2, tool_execute_error_reward: 0, max_tool_uses: 1 },
        tool_configs: [{ tool_id: 'mcp', tool_args: { server_url: 'xxx' } }],
      },
    });
    expect(Object.keys(config.custom_envs)).toEqual(['HotpotQA', 'HotpotQA_with_mcp', 'HotpotQA_with_search']);
    expect(config.custom_envs.HotpotQA_with_search.tool_wrapper?.tool_configs[0]).toEqual({ tool_id: 'search', tool_args: { search_url: 'http://localhost:8000/retrieve' } });
    // Pipeline keys stay as ROLL wrote them; Hydra's own `hydra` node and the defaults list are gone.
    expect(config).toMatchObject({ exp_name: 'agentic_pipeline', seed: 42, max_steps: 1024, checkpoint_config: { output_dir: '/data/cpfs_0/rl_examples/models/agentic_pipeline' } });
    expect((config as Record<string, unknown>).actor_train).toMatchObject({ device_mapping: 'list(range(0,8))', model_args: { model_type: null }, training_args: { learning_rate: 1e-6 } });
    expect(config).not.toHaveProperty('hydra');
    expect(config).not.toHaveProperty('defaults');
  });

  it('runs HotpotQA_with_mcp against an SSE MCP server: ROLL prompt, tool result, limit, answer', async () => {
    const { config, ...loaded } = await loadRolloutConfig(PRIMARY, { env: {}, overrides: [`${SERVER_URL}=${server.url}`] });
    expect(server.url).toMatch(/\/sse$/);
    // roll_qa reads a Hugging Face dataset in ROLL; here a local question stands in for it.
    const envs = createEnvRegistry().add('roll_qa', () => new QAEnv({ items: [{ id: 'hp1', question: 'What is the capital of France?', answers: ['Paris'] }] }));
    const tools = createToolRegistry({ pool: new McpClientPool() });
    const env = await makeRolloutEnv({ config, ...loaded }, 'HotpotQA_with_mcp', { tools, envs });
    try {
      const { observation, info } = await env.reset({ seed: 0 });
      expect(observation).toMatch(/^Answer the question\. [^\n]*\n\nQuestion: What is the capital of France\?\nYou are a precise, computer-like agent\./);
      expect(observation).toContain('## AVAILABLE TOOLS\n');
      expect(observation).toContain('"name": "lookup",');
      expect(info).toMatchObject({ use_tool: false, metrics: { tool_use_counter: 0 }, metrics_agg_mode: { tool_use_counter: 'last' } });

      const looked = await env.step('<think>look it up</think><tool_call>{"tool_name": "lookup", "tool_params": {"topic": "France"}}</tool_call>');
      expect(looked.observation).toBe(
        '<information>France is a country in Western Europe. Its capital is Paris.</information>\n\nReached the maximum number of tool use. Please output final answer directly.',
      );
      expect(looked).toMatchObject({ reward: 0.2, terminated: false, info: { tool_type: 'mcp', use_tool: true, metrics: { tool_use_counter: 1, tool_success_counter: 1 } } });
      expect(server.calls.at(-1)).toMatchObject({ name: 'lookup', args: { topic: 'France' } });

      const answered = await env.step('<answer>Paris</answer>');
      expect(answered).toMatchObject({ reward: 1, terminated: true, info: { correct: true, use_tool: false } });
    } finally {
      await env.close?.();
      await tools.close();
    }
  });
});
