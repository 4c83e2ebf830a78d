import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyOverrides } from './config-overrides.ts';
import { loadRolloutConfig, parseRolloutConfig, RolloutConfigError } from './config.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/rollout');
const URL_PATH = 'custom_envs.QA_with_mcp.tool_wrapper.tool_configs.0.tool_args.server_url';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rollout-config-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('loadRolloutConfig', () => {
  it('reads the YAML fixture, with defaults filled and the env var default used', async () => {
    const { config, baseDir } = await loadRolloutConfig(join(FIXTURES, 'qa-mcp.yaml'), { env: {} });
    expect(baseDir).toBe(FIXTURES);
    expect(config.custom_envs.QA_with_mcp).toEqual({
      env_type: 'qa',
      max_steps: 6,
      max_tokens_per_step: 128,
      env_config: { file: 'qa.json' },
      tool_wrapper: {
        wrapper_args: { tool_reward: 0, tool_success_reward: 0.2, tool_execute_error_reward: 0, max_tool_uses: 2 },
        tool_configs: [{ tool_id: 'mcp', tool_args: { server_url: 'xxx', timeout_ms: 5000, tool_names_subset: ['lookup'] } }],
      },
    });
  });

  it('takes the server URL from ${oc.env:VAR}', async () => {
    const { config } = await loadRolloutConfig(join(FIXTURES, 'qa-mcp.yaml'), { env: { MCP_SERVER_URL: 'http://127.0.0.1:8000/mcp' } });
    expect(config.custom_envs.QA_with_mcp.tool_wrapper?.tool_configs[0].tool_args.server_url).toBe('http://127.0.0.1:8000/mcp');
  });

  it('a dotted override beats the env var', async () => {
    const { config } = await loadRolloutConfig(join(FIXTURES, 'qa-mcp.yaml'), {
      env: { MCP_SERVER_URL: 'http://from-env/mcp' },
      overrides: [`${URL_PATH}=http://localhost:8000/mcp`, 'custom_envs.QA_with_mcp.tool_wrapper.wrapper_args.max_tool_uses=3'],
    });
    const env = config.custom_envs.QA_with_mcp;
    expect(env.tool_wrapper?.tool_configs[0].tool_args.server_url).toBe('http://localhost:8000/mcp');
    expect(env.tool_wrapper?.wrapper_args.max_tool_uses).toBe(3);
  });

  it('accepts the seed snippet (environments at the top level) and puts them under custom_envs', async () => {
    const { config } = await loadRolloutConfig(join(FIXTURES, 'seed-shape.yaml'), {
      overrides: ['custom_envs.HotpotQA_with_mcp.tool_wrapper.tool_configs.0.tool_args.server_url=http://127.0.0.1:1/mcp'],
    });
    expect(Object.keys(config.custom_envs)).toEqual(['HotpotQA_with_mcp']);
    expect(config.custom_envs.HotpotQA_with_mcp.env_config).toEqual({ dataset_name: 'axon-rl/HotpotQA', split: 'train' });
    expect(config.custom_envs.HotpotQA_with_mcp.tool_wrapper?.tool_configs[0].tool_args.server_url).toBe('http://127.0.0.1:1/mcp');
  });

  it('reads JSON, and keeps unknown top-level pipeline keys', async () => {
    const file = join(dir, 'c.json');
    await writeFile(file, JSON.stringify({ seed: 7, custom_envs: { A: { env_type: 'qa', env_config: { file: 'x.json' } } } }));
    const { config } = await loadRolloutConfig(file);
    expect(config.seed).toBe(7);
    expect(config.custom_envs.A.env_type).toBe('qa');
  });

  it('names the file for a missing file, and file:line:col for bad YAML or JSON', async () => {
    await expect(loadRolloutConfig(join(dir, 'missing.yaml'))).rejects.toThrow(/missing\.yaml: cannot read rollout config/);
    const yamlFile = join(dir, 'bad.yaml');
    await writeFile(yamlFile, 'custom_envs:\n  A:\n    env_type: qa\n   bad: [\n');
    await expect(loadRolloutConfig(yamlFile)).rejects.toThrow(/bad\.yaml:\d+:\d+: invalid YAML/);
    const jsonFile = join(dir, 'bad.json');
    await writeFile(jsonFile, '{\n  "custom_envs": {,}\n}');
    await expect(loadRolloutConfig(jsonFile)).rejects.toThrow(/bad\.json:2:\d+: invalid JSON/);
  });
});

describe('config validation errors name the path', () => {
  const parse = (text: string, overrides: string[] = []) => () => parseRolloutConfig(text, { source: 'c.yaml', env: {}, overrides });
  const base = `custom_envs:
  QA:
    env_type: qa
    tool_wrapper:
      wrapper_args: { tool_reward: 0.1, max_tool_uses: 2 }
      tool_configs:
        - tool_id: mcp
          tool_args: { server_url: "http://x/mcp" }
`;

  it('accepts the base', () => {
    expect(parse(base)().custom_envs.QA.tool_wrapper?.wrapper_args).toEqual({ tool_reward: 0.1, tool_success_reward: 0, tool_execute_error_reward: 0, max_tool_uses: 2 });
  });

  it.each([
    ['custom_envs.QA.tool_wrapper.wrapper_args.max_tool_uses=abc', 'custom_envs.QA.tool_wrapper.wrapper_args.max_tool_uses: Invalid input: expected number, received string'],
    ['custom_envs.QA.tool_wrapper.wrapper_args.max_tool_uses=-1', 'custom_envs.QA.tool_wrapper.wrapper_args.max_tool_uses: Too small'],
    ['+custom_envs.QA.tool_wrapper.wrapper_args.max_tool_use=1', 'custom_envs.QA.tool_wrapper.wrapper_args: Unrecognized key: "max_tool_use"'],
    ['~custom_envs.QA.env_type', 'custom_envs.QA.env_type: Invalid input: expected string, received undefined'],
    ['custom_envs.QA.tool_wrapper.tool_configs=[]', 'custom_envs.QA.tool_wrapper.tool_configs: Too small'],
    ['+custom_envs.QA.tool_wraper={}', 'custom_envs.QA.tool_wraper: Unrecognized key: "tool_wraper" (did you mean "tool_wrapper"?)'],
    ['custom_envs.QA.tool_wrapper.tool_configs.0.tool_id=""', 'custom_envs.QA.tool_wrapper.tool_configs.0.tool_id: Too small'],
  ])('%s', (override, message) => {
    expect(parse(base, [override])).toThrow(RolloutConfigError);
    expect(parse(base, [override])).toThrow(message);
  });

  it('a document that is not environments says what was expected', () => {
    expect(parse('- a\n- b\n')).toThrow('c.yaml: expected a mapping of environments (under custom_envs), got a list');
    expect(parse('name: x\n')).toThrow(/expected "custom_envs: \{ <name>: \{ env_type, \.\.\. \} \}"/);
  });
});

describe('interpolation in a loaded config', () => {
  it('an interpolated number satisfies a numeric field', () => {
    const config = parseRolloutConfig('QA:\n  env_type: qa\n  max_steps: ${oc.env:STEPS}\n', { env: { STEPS: '12' } });
    expect(config.custom_envs.QA.max_steps).toBe(12);
  });

  it('an unset variable without default names the file and the key', () => {
    expect(() => parseRolloutConfig('QA:\n  env_type: ${oc.env:KIND}\n', { env: {}, source: 'c.yaml' })).toThrow(
      `c.yaml: KeyError raised while resolving interpolation: "Environment variable 'KIND' not found"\n    full_key: custom_envs.QA.env_type`,
    );
  });
});

describe('overrides (Hydra semantics)', () => {
  const fresh = () => ({ a: { b: 1, list: [{ x: 1 }], d: { p: 1, q: { r: 1 } } } }) as Record<string, unknown>;

  it('changes existing keys and list items; + adds; ++ adds or changes; dict values merge', () => {
    const root = fresh();
    applyOverrides(root, ['a.b=trUe', 'a.list.0.x=[1, 2]', '+a.c.d=null', '++a.b=hello world', '+a.e={y: 2}', 'a.d={q: {s: 2}}', '++z=10_0']);
    expect(root).toEqual({ a: { b: 'hello world', list: [{ x: [1, 2] }], c: { d: null }, e: { y: 2 }, d: { p: 1, q: { r: 1, s: 2 } } }, z: 100 });
  });

  it('deletes with ~, and ~key=value only when the value matches', () => {
    const root = fresh();
    applyOverrides(root, ['~a.b=1', '~a.list.0']);
    expect(root).toMatchObject({ a: { list: [] } });
    expect(() => applyOverrides(fresh(), ['~a.b=2'])).toThrow("Could not delete from config. The value of 'a.b' is 1 and not 2.");
  });

  it.each([
    ['a.nope=1', "Could not override 'a.nope'.\nTo append to your config use +a.nope=1"],
    ['a.x.y=1', "Could not override 'a.x.y'.\nTo append to your config use +a.x.y=1"],
    ['+a.b=2', "Could not append to config. An item is already at 'a.b'.\nEither remove + prefix: 'a.b=2'\nOr add a second + to add or override 'a.b': '++a.b=2'\n"],
    ['~a.zzz', "Could not delete from config. 'a.zzz' does not exist."],
    ['a.b=1,2,3', "Ambiguous value for argument 'a.b=1,2,3'\n1. To use it as a list, use key=[value1,value2]\n2. To use it as string, quote the value: key='value1,value2'\n3. To sweep over it, add --multirun to your command line"],
    ['a.b=range(1,3)', "Sweep parameters 'a.b=range(1,3)' requires --multirun"],
    ['db@pkg=mysql', "Override db@pkg=mysql looks like a config group override, but config group 'db' does not exist."],
    ['a.b=[1', "Error parsing override 'a.b=[1'"],
    ['a b=1', "token recognition error at: ' '"],
    ['a.b.c=1', "Could not override 'a.b.c'."],
    ['++a.b.c=1', "Error merging override ++a.b.c=1: 'a.b' is 1, not a mapping or a list"],
  ])('%s is refused with Hydra\'s message', (override, message) => {
    expect(() => applyOverrides(fresh(), [override])).toThrow(message);
  });
});
