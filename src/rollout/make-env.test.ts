import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRolloutConfig, parseRolloutConfig } from './config.ts';
import type { Env } from './env.ts';
import { createEnvRegistry, makeRolloutEnv } from './make-env.ts';
import { startTestMcpServer, type TestMcpServer } from './testing/mcp-test-server.ts';
import { TimeLimit } from './time-limit.ts';
import { createToolRegistry } from './tool-registry.ts';

const CONFIG = join(import.meta.dirname, '../../fixtures/rollout/qa-mcp.yaml');
const lookup = (topic: string) => `<tool_call>{"tool_name": "lookup", "tool_params": {"topic": "${topic}"}}</tool_call>`;

let server: TestMcpServer;
beforeAll(async () => {
  server = await startTestMcpServer();
});
afterAll(() => server.close());

describe('makeRolloutEnv', () => {
  it('builds the QA env with its MCP tool and step limit from the YAML config', async () => {
    const loaded = await loadRolloutConfig(CONFIG, { env: { MCP_SERVER_URL: server.url } });
    const tools = createToolRegistry();
    const env = await makeRolloutEnv(loaded, 'QA_with_mcp', { tools });
    expect(env).toBeInstanceOf(TimeLimit);
    const { observation } = await env.reset({ seed: 0 });
    expect(observation).toContain('Question: What is the capital of France?');
    expect(observation).toContain('"name": "lookup",');
    expect(observation).not.toContain('"name": "echo",'); // tool_names_subset: [lookup]
    const looked = await env.step(lookup('France'));
    expect(looked).toMatchObject({ reward: 0.2, terminated: false, truncated: false });
    expect(looked.observation).toContain('Its capital is Paris.');
    const answered = await env.step('<answer>Paris</answer>');
    expect(answered).toMatchObject({ reward: 1, terminated: true, info: { elapsed_steps: 2, metrics: { tool_use_counter: 1 } } });
    await env.close?.();
    await tools.close();
  });

  it('truncates at max_steps, counting tool calls', async () => {
    const loaded = await loadRolloutConfig(CONFIG, {
      env: {},
      overrides: [
        `custom_envs.QA_with_mcp.tool_wrapper.tool_configs.0.tool_args.server_url=${server.url}`,
        'custom_envs.QA_with_mcp.max_steps=2',
        'custom_envs.QA_with_mcp.tool_wrapper.wrapper_args.max_tool_uses=null',
      ],
    });
    const env = await makeRolloutEnv(loaded, 'QA_with_mcp');
    await env.reset({ seed: 1 });
    expect((await env.step(lookup('Japan'))).truncated).toBe(false);
    expect((await env.step(lookup('Japan'))).truncated).toBe(true);
    await env.close?.();
  });

  it('names what is missing: the environment, the env type, the QA file', async () => {
    const loaded = { config: parseRolloutConfig('A:\n  env_type: qa\n'), file: 'c.yaml', baseDir: '/nowhere' };
    await expect(makeRolloutEnv(loaded, 'B')).rejects.toThrow('c.yaml: no environment "B" under custom_envs (has: A)');
    await expect(makeRolloutEnv(loaded, 'A')).rejects.toThrow('env "qa": env_config needs "file" (a QA JSON file) or "items"');
    const other = { ...loaded, config: parseRolloutConfig('A:\n  env_type: roll_qa\n') };
    await expect(makeRolloutEnv(other, 'A')).rejects.toThrow('unknown environment "roll_qa"; registered: qa');
    const missing = { ...loaded, config: parseRolloutConfig('A:\n  env_type: qa\n  env_config: { file: nope.json }\n') };
    await expect(makeRolloutEnv(missing, 'A')).rejects.toThrow('/nowhere/nope.json: cannot read QA data');
  });

  it('custom environment types register on an env registry', async () => {
    const envs = createEnvRegistry().add('const', (config): Env => ({
      reset: () => ({ observation: String(config.text), info: {} }),
      step: () => ({ observation: '', reward: 0, terminated: true, truncated: false, info: {} }),
    }));
    const loaded = { config: parseRolloutConfig('A:\n  env_type: const\n  env_config: { text: hi }\n'), file: undefined, baseDir: '.' };
    const env = await makeRolloutEnv(loaded, 'A', { envs });
    expect((await env.reset()).observation).toBe('hi');
  });
});

describe('TimeLimit', () => {
  it('needs a positive integer', () => {
    const inner: Env = { reset: () => ({ observation: '', info: {} }), step: () => ({ observation: '', reward: 0, terminated: false, truncated: false, info: {} }) };
    expect(() => new TimeLimit(inner, 0)).toThrow(/positive integer/);
  });
});
