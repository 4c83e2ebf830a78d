import { parseOverride, type HydraOverride, type OverrideValue } from './hydra-override.ts';
import { pyStr } from './python-repr.ts';

type Node = Record<string, unknown> | unknown[];

/**
 * Applies Hydra command-line overrides to a composed config, in place, as Hydra's
 * ConfigLoaderImpl does (the config in struct mode): `a.b=v` changes an existing
 * key, `+a.b=v` adds a new one, `++a.b=v` adds or changes, `~a.b` (or `~a.b=v`,
 * only if the value matches) deletes. Values follow Hydra's grammar (hydra-override.ts);
 * a dict value merges into an existing dict. Sweeps (`a=1,2`, `choice(...)`) are
 * refused, as Hydra refuses them without --multirun. Errors are Hydra's texts.
 *
 * @example
 * applyOverrides(config, ['custom_envs.QA.tool_wrapper.tool_configs.0.tool_args.server_url=http://127.0.0.1:3000/sse']);
 */
export function applyOverrides(root: Record<string, unknown>, overrides: readonly string[]): void {
  for (const line of overrides) applyOne(root, parseOverride(line));
}

function applyOne(root: Record<string, unknown>, override: HydraOverride): void {
  const { key, inputLine } = override;
  if (override.package !== undefined) {
    throw new Error(`Override ${inputLine} looks like a config group override, but config group '${key}' does not exist.`);
  }
  if (override.valueType === 'simple_choice_sweep') {
    throw new Error(
      `Ambiguous value for argument '${inputLine}'\n1. To use it as a list, use key=[value1,value2]\n2. To use it as string, quote the value: key='value1,value2'\n3. To sweep over it, add --multirun to your command line`,
    );
  }
  if (override.valueType === 'sweep') throw new Error(`Sweep parameters '${inputLine}' requires --multirun`);
  const path = key.split('.');
  if (path.some((p) => p === '')) throw new Error(`Could not override '${key}'.\nTo append to your config use +${inputLine}`);
  const value = override.value as OverrideValue;
  const current = select(root, path);

  switch (override.type) {
    case 'del': {
      const parent = select(root, path.slice(0, -1));
      if (!isNode(parent) || current === undefined) throw new Error(`Could not delete from config. '${key}' does not exist.`);
      if (override.valueType !== undefined && !sameValue(value, current)) {
        throw new Error(`Could not delete from config. The value of '${key}' is ${pyStr(current)} and not ${pyStr(value)}.`);
      }
      const last = path.at(-1)!;
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      return;
    }
    case 'add':
      if (current !== undefined && current !== null && !(typeof value === 'object' && value !== null)) {
        throw new Error(
          `Could not append to config. An item is already at '${key}'.\nEither remove + prefix: '${inputLine.slice(1)}'\nOr add a second + to add or override '${key}': '+${inputLine}'\n`,
        );
      }
      return update(root, path, value, true, inputLine);
    case 'force_add':
      return update(root, path, value, true, inputLine);
    case 'change':
      if (current === undefined) throw new Error(`Could not override '${key}'.\nTo append to your config use +${inputLine}`);
      return update(root, path, value, false, inputLine);
  }
}

/** OmegaConf.update(cfg, key, value, merge=True, force_add): dicts merge into dicts, anything else replaces. */
function update(root: Record<string, unknown>, path: readonly string[], value: OverrideValue, forceAdd: boolean, inputLine: string): void {
  let node: Node = root;
  for (const [i, segment] of path.slice(0, -1).entries()) {
    let next = get(node, segment);
    if (next === undefined || next === null) {
      if (!forceAdd) throw new Error(`Could not override '${path.join('.')}'.\nTo append to your config use +${inputLine}`);
      next = {};
      put(node, segment, next, inputLine);
    }
    if (!isNode(next)) throw new Error(`Error merging override ${inputLine}: '${path.slice(0, i + 1).join('.')}' is ${pyStr(next)}, not a mapping or a list`);
    node = next;
  }
  const last = path.at(-1)!;
  const existing = get(node, last);
  put(node, last, isDict(existing) && isDict(value) ? merge(existing, value) : structuredClone(value), inputLine);
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(from)) {
    const existing = into[k];
    into[k] = isDict(existing) && isDict(v) ? merge(existing, v) : structuredClone(v);
  }
  return into;
}

function select(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const segment of path) {
    if (!isNode(node)) return undefined;
    node = get(node, segment);
  }
  return node;
}

function get(node: Node, key: string): unknown {
  if (Array.isArray(node)) return /^\d+$/.test(key) ? node[Number(key)] : undefined;
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

function put(node: Node, key: string, value: unknown, inputLine: string): void {
  if (Array.isArray(node)) {
    if (!/^\d+$/.test(key) || Number(key) >= node.length) throw new Error(`Error merging override ${inputLine}: list index ${key} is out of range (the list has ${node.length} items)`);
    node[Number(key)] = value;
  } else {
    Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null;
}

function isDict(value: unknown): value is Record<string, unknown> {
  return isNode(value) && !Array.isArray(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
