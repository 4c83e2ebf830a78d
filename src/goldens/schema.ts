import { z } from 'zod';

/**
 * The golden file format: one human-readable JSON file per test, validated by zod.
 * The types are derived from the schemas, so the file and the code cannot drift apart.
 */

export const GOLDEN_FORMAT_VERSION = 1;

/**
 * One stream frame exactly as it arrived, and when: an SSE frame (ending in its blank line) or an
 * NDJSON line as its UTF-8 text, a binary event-stream message as base64.
 */
export const SseEventSchema = z
  .object({
    /** Milliseconds since the request was sent when this frame was complete. */
    offsetMs: z.number().nonnegative(),
    data: z.string(),
  })
  .strict();

export const ToolCallViewSchema = z
  .object({ id: z.string().nullable(), name: z.string(), arguments: z.unknown() })
  .strict();

export const TokenUsageSchema = z
  .object({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    /** Of the output tokens, the reasoning's (where the API reports them). */
    reasoningTokens: z.number().int().nonnegative().optional(),
  })
  .strict();

/** The readable view of an answer (assembled from the SSE events, or read from the JSON body). */
export const AnswerSummarySchema = z
  .object({
    text: z.string(),
    toolCalls: z.array(ToolCallViewSchema),
    finishReason: z.string().nullable(),
    /** The reasoning the answer carried (thinking, a reasoning summary, thought parts), as its reader joined it. */
    reasoning: z.string().optional(),
    /** The model declined: its refusal text. */
    refusal: z.string().optional(),
    /** The answer's text as the JSON value it is (a structured answer): diffs and drift show the object. */
    json: z.unknown().optional(),
    /** A stream that ended with the API's own error event: what it said (absent for a clean end). */
    error: z.object({ message: z.string(), type: z.string().nullable(), status: z.number().int().nullable() }).strict().optional(),
  })
  .strict();

export const RecordedRequestSchema = z
  .object({
    method: z.string(),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    /** Parsed JSON when the body was JSON, the text otherwise, null when empty. */
    body: z.unknown(),
  })
  .strict();

export const RecordedResponseSchema = z
  .object({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    /** JSON (or text) body; absent for SSE. */
    body: z.unknown().optional(),
    /** Stream frames, byte-exact, with arrival offsets. */
    events: z.array(SseEventSchema).optional(),
    /** How `events` are framed (the provider's stream format); absent means SSE. */
    framing: z.enum(['sse', 'ndjson', 'binary']).optional(),
    /** Bytes that arrived after the last complete frame (a cut stream), kept so replay is exact (base64 when binary). */
    trailing: z.string().optional(),
    /** The connection broke before the body was complete. */
    interrupted: z.boolean().optional(),
  })
  .strict();

export const InteractionSchema = z
  .object({
    /** The wire API the request was for (`openai`, `anthropic`, ...), null when unknown. */
    provider: z.string().nullable(),
    request: RecordedRequestSchema,
    response: RecordedResponseSchema,
    /** Readable view of the answer beside the raw body/events. */
    summary: AnswerSummarySchema.nullable(),
    usage: TokenUsageSchema.nullable(),
    /** Wall time from request sent to response complete. */
    durationMs: z.number().nonnegative(),
  })
  .strict();

/** One WebSocket frame of a realtime conversation: who sent it, when, and its text. */
export const RealtimeFrameSchema = z
  .object({
    direction: z.enum(['client', 'server']),
    /** Milliseconds since the connection opened. */
    offsetMs: z.number().nonnegative(),
    data: z.string(),
  })
  .strict();

/** One realtime (WebSocket) connection, every frame in order: OpenAI Realtime, Gemini Live. */
export const RealtimeConversationSchema = z
  .object({
    /** `openai-realtime`, `gemini-live`. */
    provider: z.string(),
    /** The URL the client opened (secret query values redacted). */
    url: z.string(),
    /** The subprotocols it asked for (secret ones redacted). */
    protocols: z.array(z.string()),
    frames: z.array(RealtimeFrameSchema),
    /** How the server side closed it, when it did. */
    close: z.object({ code: z.number().int(), reason: z.string() }).strict().optional(),
  })
  .strict();

export const GoldenFileSchema = z
  .object({
    formatVersion: z.literal(GOLDEN_FORMAT_VERSION),
    /** The test that owns the golden: file relative to the project root and full test name. */
    test: z.object({ file: z.string(), name: z.string() }).strict(),
    recordedAt: z.iso.datetime(),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    /** What went in, as the test declared it with `golden.input(...)` (null when not declared). */
    input: z.unknown(),
    interactions: z.array(InteractionSchema),
    /** Realtime WebSocket conversations, in the order they were opened (absent when there were none). */
    realtime: z.array(RealtimeConversationSchema).optional(),
    /** Expected outputs by name (`toMatchGolden(name?)`; the default name is `output`). */
    expected: z.record(z.string(), z.unknown()),
  })
  .strict();

export type SseEvent = z.infer<typeof SseEventSchema>;
export type ToolCallView = z.infer<typeof ToolCallViewSchema>;
export type TokenUsage = z.infer<typeof TokenUsageSchema>;
export type AnswerSummary = z.infer<typeof AnswerSummarySchema>;
export type RecordedRequest = z.infer<typeof RecordedRequestSchema>;
export type RecordedResponse = z.infer<typeof RecordedResponseSchema>;
export type Interaction = z.infer<typeof InteractionSchema>;
export type GoldenFile = z.infer<typeof GoldenFileSchema>;
export type RealtimeFrameRecord = z.infer<typeof RealtimeFrameSchema>;
export type RealtimeConversation = z.infer<typeof RealtimeConversationSchema>;
