// The lazy folder's public face: making a value, or loading a dependency, on first use.
export { lazily, requireLazily } from './require-lazily.ts';
