import { z } from 'zod';
import { PROVIDER_IDS } from '../providers/registry.ts';
import { RegexSchema } from './regex-schema.ts';

/**
 * The scenario format: the single source of truth for the JSON files, the builder's output
 * and the TypeScript types. `npm run schema` writes the JSON Schema to schema/scenario.schema.json.
 */

export { RegexSchema };

/** A string constraint: exact value, `{ contains }`, `{ regex }` or `{ equals }`. */
export const TextMatchSchema = z.union([
  z.string(),
  z.object({ equals: z.string() }).strict(),
  z.object({ contains: z.string() }).strict(),
  RegexSchema,
]);

export const MessageMatchSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool']).optional(),
    content: TextMatchSchema.optional(),
  })
  .strict();

export const MatchSchema = z
  .object({
    provider: z.enum(PROVIDER_IDS as [string, ...string[]]).optional(),
    path: z.string().optional(),
    model: TextMatchSchema.optional(),
    stream: z.boolean().optional(),
    lastMessage: MessageMatchSchema.optional(),
    messages: z.array(MessageMatchSchema).optional(),
    tools: z.array(z.string()).optional(),
    toolResults: z.union([z.literal(true), z.array(z.string())]).optional(),
    headers: z.record(z.string(), TextMatchSchema).optional(),
    /**
     * Structured-output requests: `true` for any request that asks for a JSON answer (a schema,
     * JSON mode or a forced tool), or the name of the schema it sends (`weather_report`).
     */
    responseFormat: z.union([z.literal(true), z.string()]).optional(),
    /** Realtime turns: the last user message came in as audio (true) or as text (false). */
    audio: z.boolean().optional(),
  })
  .strict();

export const ToolCallSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export const UsageSchema = z
  .object({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    /** Of `outputTokens`, how many were reasoning (estimated from `respond.reasoning` when absent). */
    reasoningTokens: z.number().int().nonnegative().optional(),
  })
  .strict();

/**
 * The model's reasoning before its answer: its text (a summary, a thinking block, thought parts),
 * or `{ text, redacted: true }` for reasoning the API hands over only as opaque data
 * (Anthropic's `redacted_thinking`, Bedrock's `redactedContent`).
 */
export const ReasoningSchema = z.union([
  z.string(),
  z.object({ text: z.string().default(''), redacted: z.boolean().default(false) }).strict(),
]);

/** `respond.json: { $generate: true, seed? }`: an instance of the request's own schema, the same for the same seed. */
export const GenerateJsonSchema = z.object({ $generate: z.literal(true), seed: z.number().int().optional() }).strict();

/** A mid-stream failure: what the provider's own error event says (its type and status default per provider). */
export const StreamErrorSchema = z
  .object({
    message: z.string(),
    type: z.string().optional(),
    status: z.number().int().min(400).max(599).optional(),
  })
  .strict();

export const StreamSchema = z
  .object({
    chunkSize: z.number().int().positive().default(8),
    chunkDelayMs: z.number().nonnegative().default(0),
    chunks: z.array(z.string()).nullable().default(null),
    disconnectAfterChunks: z.number().int().nonnegative().nullable().default(null),
    errorAfterChunks: z.number().int().nonnegative().optional(),
    error: StreamErrorSchema.optional(),
  })
  .strict()
  .superRefine((stream, ctx) => {
    // The two halves of a mid-stream error go together; a cut and an error are two different endings.
    if (stream.errorAfterChunks !== undefined && stream.error === undefined) {
      ctx.addIssue({ code: 'custom', path: ['error'], message: 'errorAfterChunks needs error: { message, type?, status? }' });
    }
    if (stream.error !== undefined && stream.errorAfterChunks === undefined) {
      ctx.addIssue({ code: 'custom', path: ['errorAfterChunks'], message: 'error needs errorAfterChunks: the number of frames sent before it' });
    }
    if (stream.errorAfterChunks !== undefined && stream.disconnectAfterChunks !== null) {
      ctx.addIssue({ code: 'custom', path: ['disconnectAfterChunks'], message: 'a stream ends either with an error event (errorAfterChunks) or a cut (disconnectAfterChunks), not both' });
    }
  })
  // The same pairing for editors: the JSON Schema export carries it as draft-7 `dependencies`.
  .meta({ dependencies: { errorAfterChunks: ['error'], error: ['errorAfterChunks'] } });

export const ErrorSpecSchema = z
  .object({
    status: z.number().int().min(400).max(599),
    message: z.string(),
    type: z.string().optional(),
    code: z.string().nullable().optional(),
    headers: z.record(z.string(), z.string()).default({}),
  })
  .strict();

export const FinishReasonSchema = z.enum(['stop', 'tool_calls', 'length', 'content_filter', 'stop_sequence']);

export const RespondSchema = z
  .object({
    text: z.string().optional(),
    /**
     * A structured answer: any JSON value, rendered as the answer in the mode the request asked for
     * (the text, or the forced tool's call) and checked against the request's schema; or
     * `{ "$generate": true, "seed"?: n }` for a deterministic instance of that schema.
     */
    json: z.unknown().optional(),
    /** The model declines: OpenAI's `refusal`, and each provider's equivalent. */
    refusal: z.string().optional(),
    /** Reasoning rendered before the answer when the request asks for it (thinking, reasoning items, thought parts). */
    reasoning: ReasoningSchema.optional(),
    toolCalls: z.array(ToolCallSchema).optional(),
    expectToolResults: z.boolean().optional(),
    usage: UsageSchema.optional(),
    finishReason: FinishReasonSchema.optional(),
    stream: StreamSchema.optional(),
    latencyMs: z.number().nonnegative().optional(),
    error: ErrorSpecSchema.optional(),
    /** Embeddings: fixed vectors, one per input (cycled when fewer). */
    embeddings: z.array(z.array(z.number())).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    echoHeaders: z.array(z.string()).optional(),
    /** Gemini Live: after this turn the server says it will disconnect (`goAway.timeLeft`, a duration such as "10s"). */
    goAway: z.string().regex(/^\d+(\.\d+)?s$/, 'a duration in seconds, such as "10s"').optional(),
  })
  .strict()
  .superRefine((respond, ctx) => {
    // A structured answer is the whole answer: its text (or the forced tool's call) is the value.
    if (respond.json !== undefined && respond.text !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['json'], message: 'json and text are two answers: give one (json is rendered as the text)' });
    }
    if (respond.json !== undefined && respond.toolCalls !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['json'], message: 'json and toolCalls are two answers: give one (json answers a forced tool call itself)' });
    }
    const generate = respond.json as { $generate?: unknown } | undefined;
    if (generate && typeof generate === 'object' && '$generate' in generate) {
      const parsed = GenerateJsonSchema.safeParse(generate);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', path: ['json'], message: 'a $generate answer is { "$generate": true, "seed"?: integer }' });
      }
    }
  });

export const StepSchema = z
  .object({
    match: MatchSchema.optional(),
    respond: RespondSchema,
    times: z.number().int().positive().optional(),
    consume: z.boolean().optional(),
    /**
     * Realtime turns: what the mock "hears" in the user's audio (no speech recognition). It becomes
     * the user message's text for later turns and is sent as the provider's input transcription.
     */
    inputTranscript: z.string().optional(),
  })
  .strict();

export const ScenarioSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().min(1),
    priority: z.number().default(0),
    variables: z.record(z.string(), z.string()).default({}),
    /**
     * `false` turns off the providers' protocol rules (unanswered tool calls, dropped thinking
     * blocks and signatures) for every request while this scenario is in play: a lenient mock.
     */
    protocolRules: z.boolean().optional(),
    steps: z.array(StepSchema),
  })
  .strict();

/** A scenario file holds one scenario or an array of them. */
export const ScenarioFileSchema = z.union([ScenarioSchema, z.array(ScenarioSchema)]);

export type TextMatch = z.infer<typeof TextMatchSchema>;
export type MessageMatch = z.infer<typeof MessageMatchSchema>;
export type Match = z.infer<typeof MatchSchema>;
export type ToolCallSpec = z.infer<typeof ToolCallSchema>;
export type ReasoningSpec = z.infer<typeof ReasoningSchema>;
export type ErrorSpec = z.infer<typeof ErrorSpecSchema>;
export type StreamErrorSpec = z.infer<typeof StreamErrorSchema>;
export type Respond = z.infer<typeof RespondSchema>;
export type Step = z.infer<typeof StepSchema>;
/** A validated scenario (defaults applied). */
export type Scenario = z.infer<typeof ScenarioSchema>;
/** A scenario as written by hand (defaults optional). */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
