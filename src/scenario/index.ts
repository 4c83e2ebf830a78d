// The scenario folder's public face: the format (zod schemas and types), the builder, the loader,
// and the engine that selects a step for each canonical request (with its matchers and templates).

export {
  RegexSchema,
  TextMatchSchema,
  MessageMatchSchema,
  MatchSchema,
  ToolCallSchema,
  UsageSchema,
  StreamSchema,
  StreamErrorSchema,
  ErrorSpecSchema,
  FinishReasonSchema,
  RespondSchema,
  StepSchema,
  ScenarioSchema,
  ScenarioFileSchema,
} from './schema.ts';
export type {
  TextMatch,
  MessageMatch,
  Match,
  ToolCallSpec,
  ErrorSpec,
  StreamErrorSpec,
  Respond,
  Step,
  Scenario,
  ScenarioInput,
} from './schema.ts';

export {
  scenario,
  openai,
  openaiResponses,
  anthropic,
  gemini,
  embeddings,
  azureOpenAI,
  vertexGemini,
  vertexAnthropic,
  bedrock,
  cohere,
  mistral,
  ollama,
  openaiRealtime,
  geminiLive,
  anyProvider,
  ScenarioBuilder,
  MatchBuilder,
  ResponseBuilder,
} from './builder.ts';
export { parseScenario, ScenarioValidationError } from './validate.ts';
export type { TextMatchLike, MessageMatchLike, MatchLike, ToolCallLike, StreamLike, ErrorOptions } from './builder.ts';

export {
  loadScenarios,
  loadScenariosFromEnv,
  readScenarioFiles,
  listScenarioFiles,
  parseScenarioText,
  mergeScenarios,
  formatIssue,
  ScenarioLoadError,
} from './loader.ts';
export type { ScenarioIssue, ScenarioReadResult } from './loader.ts';
export { scenarioJsonSchema, renderScenarioJsonSchema } from './json-schema.ts';
export { lintScenario } from './lint.ts';

export { ScenarioEngine } from './engine.ts';
export { matchFailures, textMatches, latestToolResults, toolResultName } from './match.ts';
export { embedText, cosineSimilarity } from './embed.ts';
export { fillTemplate } from './template.ts';
export { estimateTokens, estimateInputTokens } from './tokens.ts';
export { PROVIDER_IDS } from '../providers/registry.ts';
export type {
  ProviderId,
  CanonicalRequest,
  CanonicalResponse,
  CanonicalError,
  CanonicalStreamError,
  CanonicalMessage,
  CanonicalTool,
  CanonicalToolCall,
  CanonicalUsage,
  FinishReason,
  StreamOptions,
} from './canonical.ts';
export type { Selection, StepRef, NearMiss, JournalEntry, ScenarioEngineLike, MintToolCallId, IdMinter } from './selection.ts';
