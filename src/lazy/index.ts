// The lazy folder's public face: making a value, loading a dependency or an optional peer's class, on first use.
export { lazily, requireLazily } from './require-lazily.ts';
export { optionalPeer } from './optional-peer.ts';
export { nodeHttp } from './node-http.ts';
