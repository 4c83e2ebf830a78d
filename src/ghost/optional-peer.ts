// The provider SDKs are optional peer dependencies: a provider's SDK is loaded when that provider is first
// constructed, so `ghostwire/ghost` (and the proxy) work with only the SDKs a project installed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A class exported by an optional peer package, loaded on first `new` (Node >= 22.12 loads ES modules
 * with require). A missing package fails with the install command.
 * @example const OpenAI = optionalPeer<typeof import('openai').default>('openai', 'default');
 */
export function optionalPeer<T extends abstract new (...args: never[]) => unknown>(pkg: string, name: string): T {
  let loaded: T | undefined;
  const load = (): T => {
    if (loaded) return loaded;
    let mod: Record<string, unknown>;
    try {
      mod = require(pkg) as Record<string, unknown>;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && (error as Error).message.includes(pkg)) {
        throw new Error(`ghostwire: this provider needs the ${pkg} package, an optional peer dependency: npm install ${pkg}`);
      }
      throw error;
    }
    loaded = (name === 'default' ? (mod.default ?? mod) : mod[name]) as T;
    return loaded;
  };
  return new Proxy(function optionalPeerClass() {} as unknown as T, {
    construct: (_target, args) => Reflect.construct(load() as unknown as new (...a: unknown[]) => object, args),
    get: (_target, property) => Reflect.get(load() as object, property),
  });
}
