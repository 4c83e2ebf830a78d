/**
 * Where the official SDKs send requests by default: the hosts a mock or a golden replay must
 * intercept when the user gives no base URL. Derived from the registered adapters.
 */
import { providerHostMatcher, providerHostPatterns, providerOrigins } from './registry.ts';

/** The default API origins of every registered provider's SDK. */
export const PROVIDER_ORIGINS: readonly string[] = providerOrigins();

/** The hosts providers answer on under a pattern (`*.openai.azure.com`), as declared. */
export const PROVIDER_HOST_PATTERNS: readonly string[] = providerHostPatterns();

/** Is this host one a provider answers on under a pattern (`contoso.openai.azure.com`)? */
export const isProviderPatternHost: (host: string) => boolean = providerHostMatcher();
