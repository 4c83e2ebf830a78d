/**
 * ghostwire/goldens: read, write, compare and inspect goldens programmatically.
 * The Vitest side (plugin, fixture, matcher, reporter) lives in ghostwire/plugin and ghostwire/vitest.
 */
export {
  GOLDEN_FORMAT_VERSION,
  GoldenFileSchema,
  InteractionSchema,
  RecordedRequestSchema,
  RecordedResponseSchema,
  SseEventSchema,
  AnswerSummarySchema,
  TokenUsageSchema,
} from './schema.ts';
export type { GoldenFile, Interaction, RecordedRequest, RecordedResponse, SseEvent, AnswerSummary, TokenUsage, ToolCallView } from './schema.ts';
export { parseGolden, readGolden, readGoldenSync, writeGolden, writeFileAtomic, serializeGolden } from './store.ts';
export { GoldenFormatError, GoldenLeakError, GoldenMismatchError } from './errors.ts';
export { Redactor, REDACTED, DEFAULT_REDACTED_HEADERS, DEFAULT_REDACTED_QUERY } from './redact.ts';
export type { RedactionOptions } from './redact.ts';
export { collectSecrets, findSecret, assertNoSecrets } from './leak-scanner.ts';
export type { Secret } from './leak-scanner.ts';
export { Masker, MASKED } from './masks.ts';
export type { MaskOptions } from './masks.ts';
export { compareValues, toJsonValue } from './compare.ts';
export type { CompareOptions, CompareResult } from './compare.ts';
export { normalizeRequest } from './normalize.ts';
export type { NormalizedRequest } from './normalize.ts';
export { Replayer } from './replayer.ts';
export type { ReplayerOptions } from './replayer.ts';
export { Recorder } from './recorder.ts';
export type { Forward } from './recorder.ts';
export { GoldenSession } from './session.ts';
export type { GoldensContext, GoldenAction, SessionOutcome } from './session.ts';
export { GoldensRuntime, fullTestName } from './runtime.ts';
export { goldenPathFor, slugify } from './paths.ts';
export { describeDrift, toolCalls, finalAnswer, finalJson } from './drift.ts';
export { inspectGolden } from './inspect.ts';
export type { InspectOptions } from './inspect.ts';
export { GoldensOptionsSchema, parseGoldensOptions, resolveGoldensConfig, resolveMode, resolveTraffic, OUTPUTS } from './config.ts';
// Always intercepted; provider knowledge, so it lives in providers/.
export { PROVIDER_ORIGINS } from '../providers/index.ts';
export type { GoldensOptions, GoldensOptionsInput, GoldenMode, ResolvedGoldensConfig, TrafficMode, OutputsUpdate } from './config.ts';
export { ownMswServer } from './interceptor.ts';
export type { Interceptor, GoldenHandler } from './interceptor.ts';
export { fromPlaceholder, toPlaceholder, isPlaceholder } from './placeholders.ts';
export type { MatcherFactory } from './placeholders.ts';
export { withPlaceholders } from './compare.ts';
// Goldens on the real port (`ghostwire serve --goldens`): the sessions' goldens and the server front.
export { PortGoldens, formatReport, upstreamTarget, toUpstreamRequest } from './port-goldens.ts';
export type { PortGoldensOptions, PortGoldenReport, PortRequestParts } from './port-goldens.ts';
export { goldenFront, GOLDEN_HEADER } from '../transports/golden-front.ts';
export type { GoldenFrontOptions } from '../transports/golden-front.ts';
