import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** Reads one YAML config file into a plain value (the loader's YAML reader, errors naming the file). */
export type ReadConfigFile = (file: string) => Promise<unknown>;

/**
 * Composes a primary config with its Hydra defaults list, as Hydra 1.1+ does for the
 * forms ROLL's example configs use: `- path/to/config` and `- path/to/config@package`
 * (`@_here_` = the including config's package, `@_global_` = the root), `- group: option`
 * (file `group/option.yaml` at package `group`), `- optional group: option`, and `_self_`
 * (implicitly last: the including config's own values win, as in Hydra 1.1+). Paths are
 * relative to the including file; entries compose depth-first; dicts merge as
 * OmegaConf.merge merges them (lists and scalars replace). The `defaults` and `hydra`
 * keys are dropped from the result, as Hydra drops them from the job's config.
 *
 * @example
 * const config = await composeDefaults(raw, '/repo/examples/qwen3_agentic_gem/gem_math_hotpotqa.yaml', readYaml);
 */
export async function composeDefaults(raw: unknown, file: string, read: ReadConfigFile): Promise<unknown> {
  const composed = await compose(raw, file, read, [resolve(file)]);
  if (isDict(composed)) delete composed.hydra;
  return composed;
}

async function compose(raw: unknown, file: string, read: ReadConfigFile, stack: string[]): Promise<unknown> {
  if (!isDict(raw) || !('defaults' in raw)) return raw;
  const { defaults, ...self } = raw;
  if (!Array.isArray(defaults)) throw new Error(`${file}: defaults: expected a list, got ${typeof defaults}`);
  let out: Record<string, unknown> = {};
  let selfMerged = false;
  for (const [index, entry] of defaults.entries()) {
    const where = `${file}: defaults.${index}`;
    if (entry === '_self_') {
      out = merge(out, self);
      selfMerged = true;
      continue;
    }
    const { path, pkg, optional } = describeEntry(entry, where);
    const target = resolve(dirname(file), `${path}.yaml`);
    if (stack.includes(target)) throw new Error(`${where}: ${path} includes itself (${[...stack, target].join(' → ')})`);
    try {
      await access(target);
    } catch (error) {
      if (optional) continue;
      throw new Error(`${where}: cannot find config '${path}' (looked for ${target}): ${(error as Error).message}`, { cause: error });
    }
    let child = await compose(await read(target), target, read, [...stack, target]);
    if (child === null || child === undefined) child = {};
    if (!isDict(child)) throw new Error(`${where}: ${target} is not a mapping`);
    out = merge(out, place(child, pkg));
  }
  return selfMerged ? out : merge(out, self);
}

function describeEntry(entry: unknown, where: string): { path: string; pkg: string; optional: boolean } {
  if (typeof entry === 'string') {
    const [path, pkg] = entry.split('@');
    if (!path) throw new Error(`${where}: "${entry}" names no config`);
    return { path, pkg: packageOf(pkg, ''), optional: false };
  }
  if (isDict(entry) && Object.keys(entry).length === 1) {
    const [rawKey, option] = Object.entries(entry)[0];
    const optional = rawKey.startsWith('optional ');
    if (rawKey.startsWith('override ')) throw new Error(`${where}: "override" entries are not supported by ghostwire's defaults reader`);
    const [group, pkg] = rawKey.replace(/^optional /, '').split('@');
    if (option === null) return { path: '', pkg: '', optional: true };
    if (typeof option !== 'string') throw new Error(`${where}: ${group}: expected an option name, got ${JSON.stringify(option)}`);
    return { path: `${group}/${option}`, pkg: packageOf(pkg, group.replaceAll('/', '.')), optional };
  }
  throw new Error(`${where}: expected "config", "config@package", "_self_" or "group: option", got ${JSON.stringify(entry)}`);
}

function packageOf(pkg: string | undefined, fallback: string): string {
  if (pkg === undefined) return fallback;
  if (pkg === '_here_' || pkg === '_global_') return '';
  return pkg.replace(/^_global_\.?/, '');
}

function place(value: Record<string, unknown>, pkg: string): Record<string, unknown> {
  return pkg === '' ? value : pkg.split('.').reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value);
}

/** OmegaConf.merge for plain values: dicts merge key by key, anything else replaces. */
function merge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const existing = out[key];
    Object.defineProperty(out, key, { value: isDict(existing) && isDict(value) ? merge(existing, value) : value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
