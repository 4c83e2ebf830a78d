import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { LoadedRolloutConfig } from './config.ts';
import type { EnvConfig } from './config-schema.ts';
import type { Env, MaybePromise } from './env.ts';
import { QAEnv } from './qa-env.ts';
import { Registry } from './registry.ts';
import { TimeLimit } from './time-limit.ts';
import type { ToolRegistry } from './tool-registry.ts';
import { toolWrapper } from './tool-wrapper.ts';

/** Builds an environment from its `env_config`; `baseDir` resolves relative paths in it. */
export type EnvFactory = (config: Record<string, unknown>, context: { baseDir: string }) => MaybePromise<Env<string>>;

const QAEnvConfigSchema = z.strictObject({
  file: z.string().min(1).optional(),
  items: z.array(z.unknown()).optional(),
  instruction: z.string().optional(),
});

/**
 * The built-in `qa` environment: `env_config: { file }` (JSON, relative to the config file) or inline `items`.
 * @example
 *   const env = await qaEnvFactory({ file: 'qa.json' }, { baseDir: process.cwd() });
 */
export const qaEnvFactory: EnvFactory = async (config, { baseDir }) => {
  const parsed = QAEnvConfigSchema.safeParse(config);
  if (!parsed.success) throw new Error(`env "qa": env_config.${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`);
  const { file, items, instruction } = parsed.data;
  if (file) return QAEnv.fromFile(isAbsolute(file) ? file : resolve(baseDir, file), { instruction });
  if (items) return new QAEnv({ items: items as never, instruction });
  throw new Error('env "qa": env_config needs "file" (a QA JSON file) or "items"');
};

/**
 * A new environment registry (the seed's `gem.make` table) with `qa` built in.
 *
 * @example
 * const envs = createEnvRegistry().add('echo', () => new EchoEnv());
 */
export function createEnvRegistry(): Registry<EnvFactory> {
  return new Registry<EnvFactory>('environment').add('qa', qaEnvFactory);
}

/**
 * What the seed's TrajEnvManager does for one config entry: make the base
 * environment from `env_type` and `env_config`, wrap it with its tools when
 * `tool_wrapper` is set, and limit it to `max_steps`.
 *
 * @example
 * const loaded = await loadRolloutConfig('fixtures/rollout/qa-mcp.yaml');
 * const registry = createToolRegistry();
 * const env = await makeRolloutEnv(loaded, 'QA_with_mcp', { tools: registry });
 */
export async function makeRolloutEnv(
  loaded: LoadedRolloutConfig,
  name: string,
  options: { tools?: ToolRegistry; envs?: Registry<EnvFactory> } = {},
): Promise<Env<string>> {
  const entry: EnvConfig | undefined = loaded.config.custom_envs[name];
  if (!entry) {
    throw new Error(`${loaded.file ?? '<config>'}: no environment "${name}" under custom_envs (has: ${Object.keys(loaded.config.custom_envs).join(', ')})`);
  }
  const envs = options.envs ?? createEnvRegistry();
  const { factory, args } = envs.resolve(entry.env_type, entry.env_config);
  let env: Env<string> = await factory(args, { baseDir: loaded.baseDir });
  if (entry.tool_wrapper) env = toolWrapper(env, entry.tool_wrapper, { registry: options.tools, baseDir: loaded.baseDir });
  if (entry.max_steps) env = new TimeLimit(env, entry.max_steps);
  return env;
}
