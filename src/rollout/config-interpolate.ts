import { parseConfigString, parseSingleElement, PyFloat, type Element, type Interpolation, type Piece } from './omegaconf-grammar.ts';
import { pyFloatRepr, pyRepr } from './python-repr.ts';

/** Environment variables, as `process.env` holds them. */
export type EnvVars = Record<string, string | undefined>;

type Path = Array<string | number>;

/**
 * Resolves OmegaConf interpolations in every string of a config, in place, as
 * OmegaConf 2.3 resolves them: `${a.b}` and relative `${.x}`/`${..x}` copy a node
 * (keeping its type when the interpolation is the whole string, else Python's
 * `str()` of it), `${oc.env:VAR}` reads a variable, `${oc.env:VAR,default}` falls
 * back to `str(default)` — or None for `null` — and defaults nest
 * (`${oc.env:A,${oc.env:B,zz}}`). `\${` is a literal `${`. Also `oc.select` and
 * `oc.decode`. Errors carry OmegaConf's wording and the key (`full_key`).
 *
 * @example
 * interpolate({ url: '${oc.env:MCP_URL,http://127.0.0.1:3000/sse}' }, {}) // { url: 'http://127.0.0.1:3000/sse' }
 */
export function interpolate<T>(root: T, env: EnvVars): T {
  const resolved = new Set<string>();
  const resolving = new Set<string>();
  const keyOf = (path: Path) => path.map(String).join('.');

  const fail = (path: Path, message: string): never => {
    throw new Error(`${message}\n    full_key: ${keyOf(path)}`);
  };

  const lookup = (path: Path): unknown => {
    let node: unknown = root;
    for (const segment of path) {
      if (typeof node !== 'object' || node === null) return undefined;
      node = Array.isArray(node) ? node[Number(segment)] : Object.hasOwn(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
    }
    return node;
  };

  const store = (path: Path, value: unknown) => {
    const parent = lookup(path.slice(0, -1)) as Record<string | number, unknown>;
    parent[path.at(-1)!] = value;
  };

  /** Resolves the node at `path` in place (a string, or every string under a container) and returns it. */
  const resolveAt = (path: Path): unknown => {
    const key = keyOf(path);
    const node = lookup(path);
    if (resolved.has(key)) return node;
    if (resolving.has(key)) fail(path, `Recursive interpolation detected`);
    resolving.add(key);
    try {
      if (typeof node === 'string' && node.includes('${')) {
        const value = unwrap(evaluateText(parseOrFail(node, path), path));
        store(path, value);
        return value;
      }
      if (typeof node === 'object' && node !== null) {
        for (const child of Array.isArray(node) ? node.keys() : Object.keys(node)) resolveAt([...path, child]);
      }
      return node;
    } finally {
      resolving.delete(key);
      resolved.add(key);
    }
  };

  const parseOrFail = (text: string, path: Path): Piece[] => {
    try {
      return parseConfigString(text);
    } catch (error) {
      return fail(path, `${(error as Error).name}: ${(error as Error).message}`);
    }
  };

  // configValue: one interpolation keeps its value's type; anything else is a string.
  const evaluateText = (pieces: Piece[], path: Path): unknown => {
    if (pieces.length === 1 && pieces[0].kind !== 'text') return evaluateInterpolation(pieces[0], path);
    return pieces.map((p) => (p.kind === 'text' ? p.text : pyStrOf(evaluateInterpolation(p, path)))).join('');
  };

  const evaluateInterpolation = (inter: Interpolation, path: Path): unknown => {
    if (inter.kind === 'node') return selectNode(inter.key, path, true);
    const name = inter.name.map((pieces) => pieces.map((p) => (p.kind === 'text' ? p.text : pyStrOf(evaluateInterpolation(p, path)))).join('')).join('.');
    const args = inter.args.map((arg) => evaluateElement(arg, path));
    switch (name) {
      case 'oc.env': {
        const [variable, ...rest] = args;
        if (typeof variable !== 'string') return fail(path, `TypeError raised while resolving interpolation: oc.env expects a variable name, got ${pyStrOf(variable)}`);
        const value = env[variable];
        if (value !== undefined) return value;
        if (rest.length > 0) return rest[0] === null ? null : pyStrOf(rest[0]);
        return fail(path, `KeyError raised while resolving interpolation: "Environment variable '${variable}' not found"`);
      }
      case 'oc.select': {
        const [key, ...rest] = args;
        const value = selectNode(String(key), path, rest.length === 0);
        return value === undefined ? rest[0] : value;
      }
      case 'oc.decode': {
        const [text] = args;
        if (text === null) return null;
        if (typeof text !== 'string') return fail(path, `TypeError raised while resolving interpolation: \`oc.decode\` can only take strings or None as input, but \`${pyStrOf(text)}\` is of type ${typeof text}`);
        let parsed: Element;
        try {
          parsed = parseSingleElement(text);
        } catch (error) {
          return fail(path, `GrammarParseError: ${(error as Error).message}`);
        }
        return evaluateElement(parsed, path);
      }
      default:
        return fail(path, `Unsupported interpolation type ${name}`);
    }
  };

  const evaluateElement = (element: Element, path: Path): unknown => {
    switch (element.kind) {
      case 'value':
        return element.value;
      case 'concat':
        return element.pieces.map((p) => (p.kind === 'text' ? p.text : pyStrOf(evaluateInterpolation(p, path)))).join('');
      case 'quoted':
        return element.pieces.map((p) => (p.kind === 'text' ? p.text : pyStrOf(evaluateInterpolation(p, path)))).join('');
      case 'list':
        return element.items.map((item) => evaluateElement(item, path));
      case 'dict':
        return Object.fromEntries(element.entries.map(([k, v]) => [pyStrOf(evaluateElement(k, path)), evaluateElement(v, path)]));
      default:
        return evaluateInterpolation(element, path);
    }
  };

  // `${a.b}`, `${a[b]}`, `${.sibling}`, `${..uncle}`: relative keys start from the node's parent.
  const selectNode = (key: string, from: Path, required: boolean): unknown => {
    const dots = /^\.*/.exec(key)![0].length;
    const rest = key.slice(dots);
    const segments = rest === '' ? [] : rest.replace(/\[([^\]]*)\]/g, '.$1').replace(/^\./, '').split('.');
    const base = dots === 0 ? [] : from.slice(0, Math.max(0, from.length - dots));
    const target: Path = [...base];
    let node: unknown = lookup(base);
    for (const segment of segments) {
      if (typeof node !== 'object' || node === null) {
        node = undefined;
        break;
      }
      const index = Array.isArray(node) ? Number(segment) : segment;
      target.push(index);
      node = Array.isArray(node) ? node[Number(segment)] : Object.hasOwn(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
    }
    if (node === undefined) return required ? fail(from, `InterpolationKeyError: Interpolation key '${key}' not found`) : undefined;
    const value = resolveAt(target);
    return typeof value === 'object' && value !== null ? structuredClone(value) : value;
  };

  resolveAt([]);
  return root;
}

/** Python's `str()` of a resolved value (floats parsed from the grammar keep Python's spelling). */
function pyStrOf(value: unknown): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (typeof value === 'string') return value;
  return pyRepr(unwrap(value));
}

function unwrap(value: unknown): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(unwrap);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrap(v)]));
  return value;
}
