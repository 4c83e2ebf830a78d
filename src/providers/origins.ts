/**
 * Where the official SDKs send requests by default: the hosts a mock or a golden replay must
 * intercept when the user gives no base URL. Derived from the registered adapters.
 */
import { providerOriginPatterns, providerOrigins } from './registry.ts';

/** The default API origins of every registered provider's SDK. */
export const PROVIDER_ORIGINS: readonly string[] = providerOrigins();

/** The default origins of providers whose host names a region or resource, as MSW URL wildcards. */
export const PROVIDER_ORIGIN_PATTERNS: readonly string[] = providerOriginPatterns();
