import { parse as parseYaml } from 'yaml';

type Node = Record<string, unknown> | unknown[];

/**
 * Applies Hydra-style dotted overrides to a parsed config, in place:
 * `a.b.0.c=value` replaces an existing key, `+a.b=value` adds a new one,
 * `++a.b=value` adds or replaces, `~a.b` deletes. Values are read as YAML
 * (`3` is a number, `true` a boolean, `[1, 2]` a list, `null` null).
 *
 * @example
 * applyOverrides(config, ['custom_envs.QA.tool_wrapper.tool_configs.0.tool_args.server_url=http://127.0.0.1:3000/mcp']);
 */
export function applyOverrides(root: Record<string, unknown>, overrides: readonly string[]): void {
  for (const override of overrides) applyOne(root, override);
}

function applyOne(root: Record<string, unknown>, override: string): void {
  const fail = (why: string): never => {
    throw new Error(`override ${JSON.stringify(override)}: ${why}`);
  };
  const mode = override.startsWith('++') ? 'upsert' : override.startsWith('+') ? 'add' : override.startsWith('~') ? 'delete' : 'set';
  const body = override.slice(mode === 'upsert' ? 2 : mode === 'set' ? 0 : 1);
  const eq = body.indexOf('=');
  if (eq < 0 && mode !== 'delete') fail('expected path=value (or +path=value to add, ~path to delete)');
  const path = (eq < 0 ? body : body.slice(0, eq)).trim();
  if (!path || path.split('.').some((p) => p === '')) fail(`"${path}" is not a dotted path`);
  let value: unknown;
  if (eq >= 0) {
    const text = body.slice(eq + 1);
    try {
      value = text.trim() === '' ? '' : parseYaml(text);
    } catch (error) {
      fail(`cannot read the value: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const keys = path.split('.');
  let node: Node = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const here = keys.slice(0, i + 1).join('.');
    let next = get(node, keys[i]);
    if (next === undefined) {
      if (mode !== 'add' && mode !== 'upsert') fail(`"${here}" does not exist (use +${path}=... to add it)`);
      next = {};
      put(node, keys[i], next, fail);
    }
    if (typeof next !== 'object' || next === null) fail(`"${here}" is ${JSON.stringify(next)}, not a mapping or list`);
    node = next as Node;
  }
  const last = keys.at(-1)!;
  const exists = get(node, last) !== undefined;
  if (mode === 'delete') {
    if (!exists) fail(`"${path}" does not exist`);
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
    return;
  }
  if (mode === 'set' && !exists) fail(`"${path}" does not exist (use +${path}=... to add it)`);
  if (mode === 'add' && exists) fail(`"${path}" already exists (use ${path}=... to replace it, or ++${path}=...)`);
  put(node, last, value, fail);
}

function get(node: Node, key: string): unknown {
  if (Array.isArray(node)) return /^\d+$/.test(key) ? node[Number(key)] : undefined;
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

function put(node: Node, key: string, value: unknown, fail: (why: string) => never): void {
  if (Array.isArray(node)) {
    if (!/^\d+$/.test(key) || Number(key) > node.length) fail(`"${key}" is not an index of a list of ${node.length}`);
    node[Number(key)] = value;
  } else {
    node[key] = value;
  }
}
