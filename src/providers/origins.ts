/**
 * Where the official SDKs send requests by default: the hosts a mock or a golden replay must
 * intercept when the user gives no base URL. Derived from the registered adapters.
 */
import { hostPattern, isConcreteHost } from './common/host-pattern.ts';
import { defaultAdapters, providerOriginPatterns, providerOrigins } from './registry.ts';

/** The default API origins of every registered provider's SDK. */
export const PROVIDER_ORIGINS: readonly string[] = providerOrigins();

/** The default origins of providers whose host names a region or resource, as MSW URL wildcards. */
export const PROVIDER_ORIGIN_PATTERNS: readonly string[] = providerOriginPatterns();

const PATTERN_HOSTS = defaultAdapters()
  .flatMap((a) => a.hosts)
  .filter((h) => !isConcreteHost(h))
  .map(hostPattern);

/**
 * Is this an https URL on a provider host declared as a pattern (`bedrock-runtime.eu-west-1.amazonaws.com`)?
 * @example
 *   onProviderHostPattern(new URL('https://bedrock-runtime.eu-west-1.amazonaws.com/model/x/converse')) // true
 */
export function onProviderHostPattern(url: URL): boolean {
  return url.protocol === 'https:' && PATTERN_HOSTS.some((p) => p.match(url.host) !== null);
}
