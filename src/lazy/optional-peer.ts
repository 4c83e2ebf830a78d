// The provider SDKs are optional peer dependencies: an SDK is loaded when the first object that needs it is
// constructed (a ghost provider, the proxy's embedder), so `ghostwire/ghost` and the proxy work with only the
// SDKs a project installed.
import { lazily, requireLazily } from './require-lazily.ts';

/**
 * A class exported by an optional peer package, loaded on first `new` (or first property read). A missing
 * package fails with the install command.
 * @example const OpenAI = optionalPeer<typeof import('openai').default>('openai', 'default');
 */
export function optionalPeer<T extends abstract new (...args: never[]) => unknown>(pkg: string, name: string): T {
  const mod = requireLazily<Record<string, unknown>>(pkg);
  const load = lazily((): T => {
    let loaded: Record<string, unknown>;
    try {
      loaded = mod();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && (error as Error).message.includes(pkg)) {
        throw new Error(`ghostwire: this needs the ${pkg} package, an optional peer dependency: npm install ${pkg}`);
      }
      throw error;
    }
    return (name === 'default' ? (loaded.default ?? loaded) : loaded[name]) as T;
  });
  return new Proxy(function optionalPeerClass() {} as unknown as T, {
    construct: (_target, args) => Reflect.construct(load() as unknown as new (...a: unknown[]) => object, args),
    get: (_target, property) => Reflect.get(load() as object, property),
  });
}
