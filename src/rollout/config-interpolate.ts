/** Environment variables, as `process.env` holds them. */
export type EnvVars = Record<string, string | undefined>;

const TOKEN = /(\\?)\$\{([^{}]*)\}/g;
const ENV_REF = /^(oc\.env|env):([A-Za-z_][A-Za-z0-9_]*)(?:,(.*))?$/s;
const NODE_REF = /^[A-Za-z_][\w-]*(\.[\w-]+)*$/;

/**
 * Resolves OmegaConf-style interpolations in every string of a config, in place:
 * `${oc.env:VAR}` and `${env:VAR}` read an environment variable (`${oc.env:VAR,default}`
 * falls back to the default), `${a.b.c}` copies another config value (keeping its
 * type when it is the whole string), and `\${` stays a literal `${`. Errors name
 * the config path.
 *
 * @example
 * interpolate({ url: '${oc.env:MCP_URL,http://127.0.0.1:3000/mcp}' }, process.env) // { url: 'http://127.0.0.1:3000/mcp' }
 */
export function interpolate<T>(root: T, env: EnvVars): T {
  const resolving = new Set<string>();

  const resolveString = (text: string, path: string): unknown => {
    const whole = /^\$\{([^{}]*)\}$/.exec(text);
    if (whole) return resolveRef(whole[1], path);
    return text.replace(TOKEN, (_match, escape: string, body: string) => {
      if (escape) return `\${${body}}`;
      const value = resolveRef(body, path);
      return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    });
  };

  const resolveRef = (body: string, path: string): unknown => {
    const ref = body.trim();
    const envRef = ENV_REF.exec(ref);
    if (envRef) {
      const [, , name, fallback] = envRef;
      const value = env[name];
      if (value !== undefined) return value;
      if (fallback !== undefined) return unquote(fallback.trim());
      throw new Error(`${path}: environment variable ${name} is not set (referenced as \${${ref}}); set it or give a default: \${${envRef[1]}:${name},default}`);
    }
    if (NODE_REF.test(ref)) {
      if (resolving.has(ref)) throw new Error(`${path}: \${${ref}} refers back to itself`);
      const target = lookup(root, ref);
      if (target === undefined) throw new Error(`${path}: \${${ref}} refers to a key that does not exist`);
      resolving.add(ref);
      try {
        return walk(structuredClone(target), ref);
      } finally {
        resolving.delete(ref);
      }
    }
    throw new Error(`${path}: unsupported interpolation \${${ref}}; use \${oc.env:VAR}, \${env:VAR}, \${oc.env:VAR,default} or \${path.to.key}`);
  };

  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === 'string') return node.includes('${') ? resolveString(node, path) : node;
    if (Array.isArray(node)) {
      node.forEach((item, i) => (node[i] = walk(item, `${path}.${i}`)));
      return node;
    }
    if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) (node as Record<string, unknown>)[key] = walk(value, path ? `${path}.${key}` : key);
    }
    return node;
  };

  return walk(root, '') as T;
}

function lookup(root: unknown, dotted: string): unknown {
  let node = root;
  for (const key of dotted.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function unquote(text: string): string {
  const quoted = /^(['"])(.*)\1$/s.exec(text);
  return quoted ? quoted[2] : text;
}
