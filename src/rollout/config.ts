import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { composeDefaults } from './hydra-defaults.ts';
import { applyOverrides } from './config-overrides.ts';
import { interpolate, type EnvVars } from './config-interpolate.ts';
import { formatIssues, RolloutConfigSchema, type RolloutConfig } from './config-schema.ts';

/** Options for {@link loadRolloutConfig} and {@link parseRolloutConfig}. */
export interface RolloutConfigOptions {
  /** Dotted overrides, as on a command line: `custom_envs.QA.max_steps=4`, `+a.b=1`, `~a.b`. */
  overrides?: readonly string[];
  /** Variables for `${oc.env:VAR}`; default `process.env`. */
  env?: EnvVars;
  /** How to read the text; by default from the file extension (`.json` is JSON, anything else YAML). */
  format?: 'yaml' | 'json';
}

/** A loaded config and where it came from (relative paths inside it are relative to `baseDir`). */
export interface LoadedRolloutConfig {
  config: RolloutConfig;
  file: string | undefined;
  baseDir: string;
}

/**
 * Thrown for any problem with a rollout config; the message names the file and the path.
 * @example
 *   if (error instanceof RolloutConfigError) console.error(error.message); // names the file and the path
 */
export class RolloutConfigError extends Error {
  override name = 'RolloutConfigError';
}

/**
 * Loads a rollout config (YAML or JSON) in the seed's shape: environments under
 * `custom_envs` (or at the top level, as in the seed's snippet), each with
 * `env_type`, `max_steps`, `env_config` and `tool_wrapper: { wrapper_args, tool_configs }`.
 * Overrides apply first, then `${oc.env:VAR}` interpolation, then zod validation.
 *
 * @example
 * const { config } = await loadRolloutConfig('fixtures/rollout/qa-mcp.yaml', {
 *   overrides: ['custom_envs.QA_with_mcp.tool_wrapper.tool_configs.0.tool_args.server_url=http://127.0.0.1:3000/mcp'],
 * });
 */
export async function loadRolloutConfig(file: string, options: RolloutConfigOptions = {}): Promise<LoadedRolloutConfig> {
  const format = options.format ?? (extname(file).toLowerCase() === '.json' ? 'json' : 'yaml');
  const readOne = async (path: string): Promise<unknown> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new RolloutConfigError(`${path}: cannot read rollout config: ${(error as Error).message}`, { cause: error });
    }
    return format === 'json' && path === file ? readJson(text, path) : readYaml(text, path);
  };
  let raw: unknown;
  try {
    raw = await composeDefaults(await readOne(file), file, readOne);
  } catch (error) {
    if (error instanceof RolloutConfigError) throw error;
    throw new RolloutConfigError((error as Error).message, { cause: error });
  }
  const config = finish(raw, { ...options, source: file });
  return { config, file, baseDir: dirname(resolve(file)) };
}

/**
 * Parses rollout config text; see {@link loadRolloutConfig}. `source` names the text in errors.
 *
 * @example
 * const config = parseRolloutConfig('QA:\n  env_type: qa\n', { env: {} });
 */
export function parseRolloutConfig(text: string, options: RolloutConfigOptions & { source?: string } = {}): RolloutConfig {
  const source = options.source ?? '<config>';
  const raw = options.format === 'json' ? readJson(text, source) : readYaml(text, source);
  if (typeof raw === 'object' && raw !== null && 'defaults' in raw) {
    throw new RolloutConfigError(`${source}: a Hydra defaults list names other files: load it with loadRolloutConfig(file)`);
  }
  return finish(raw, { ...options, source });
}

function finish(raw: unknown, options: RolloutConfigOptions & { source: string }): RolloutConfig {
  const { source } = options;
  const root = normalize(raw, source);
  try {
    applyOverrides(root, options.overrides ?? []);
    interpolate(root, options.env ?? process.env);
  } catch (error) {
    throw new RolloutConfigError(`${source}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = RolloutConfigSchema.safeParse(root);
  if (!parsed.success) throw new RolloutConfigError(formatIssues(source, parsed.error.issues));
  return parsed.data;
}

function readYaml(text: string, source: string): unknown {
  // OmegaConf reads YAML 1.1 (PyYAML's SafeLoader: yes/no/on/off are booleans, 1_000 a number) without timestamps.
  const doc = parseDocument(text, { prettyErrors: true, version: '1.1', customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp') });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    throw new RolloutConfigError(`${source}${at ? `:${at.line}:${at.col}` : ''}: invalid YAML: ${error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  return doc.toJS();
}

function readJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const at = position ? lineCol(text, Number(position[1])) : '';
    throw new RolloutConfigError(`${source}${at}: invalid JSON: ${message}`, { cause: error });
  }
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `:${before.length}:${before.at(-1)!.length + 1}`;
}

/** The seed writes environments at the top level; ROLL nests them under `custom_envs`. Both become the latter. */
function normalize(raw: unknown, source: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new RolloutConfigError(`${source}: expected a mapping of environments (under custom_envs), got ${raw === null ? 'nothing' : Array.isArray(raw) ? 'a list' : typeof raw}`);
  }
  const root = raw as Record<string, unknown>;
  if ('custom_envs' in root) return root;
  const entries = Object.entries(root);
  const looksLikeEnvs = entries.length > 0 && entries.every(([, v]) => typeof v === 'object' && v !== null && 'env_type' in v);
  if (!looksLikeEnvs) {
    throw new RolloutConfigError(`${source}: expected "custom_envs: { <name>: { env_type, ... } }" or environments at the top level, each with env_type`);
  }
  return { custom_envs: root };
}
