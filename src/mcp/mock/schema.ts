import { z } from 'zod';
import { RegexSchema } from '../../scenario/regex-schema.ts';

/**
 * The MCP scenario format: one file declares one mock MCP server (what it lists and how it answers).
 * The single source of truth for the JSON files, the builder's output and the TypeScript types;
 * `npm run schema` writes the JSON Schema to schema/mcp-scenario.schema.json.
 */

const Json = z.record(z.string(), z.unknown());

/**
 * A constraint on one JSON value. A string, number, boolean or null must be equal; the object
 * forms are the LLM scenarios' text matchers (`contains`, `regex`) plus `equals` (any JSON,
 * compared deeply) and `exists`.
 */
export const ValueMatchSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.object({ equals: z.unknown() }).strict(),
  z.object({ contains: z.string() }).strict(),
  RegexSchema,
  z.object({ exists: z.boolean() }).strict(),
]);

/** Constraints on a tool call's arguments; every one given must hold. */
export const ArgumentsMatchSchema = z
  .object({
    /** Top-level arguments by name. */
    arguments: z.record(z.string(), ValueMatchSchema).optional(),
    /** The whole arguments object, compared deeply. */
    argumentsEqual: Json.optional(),
    /** JSON paths into the arguments (`$.filter.labels[0]`). */
    jsonPath: z.record(z.string(), ValueMatchSchema).optional(),
  })
  .strict();

const Annotations = z
  .object({
    audience: z.array(z.enum(['user', 'assistant'])).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.string().optional(),
  })
  .strict();

const common = { annotations: Annotations.optional(), _meta: Json.optional() };

export const ResourceContentsSchema = z.union([
  z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string(), _meta: Json.optional() }).strict(),
  z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string(), _meta: Json.optional() }).strict(),
]);

/** A content block of a tool result or prompt message, as MCP puts it on the wire. */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), ...common }).strict(),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string(), ...common }).strict(),
  z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), ...common }).strict(),
  z.object({ type: z.literal('resource'), resource: ResourceContentsSchema, ...common }).strict(),
  z
    .object({
      type: z.literal('resource_link'),
      uri: z.string(),
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      ...common,
    })
    .strict(),
]);

/** A JSON-RPC error the request is answered with instead of a result. */
export const ProtocolErrorSchema = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).strict();

/** A request the server sends the client while it handles a call (sampling, elicitation, roots). */
export const ClientRequestSchema = z
  .object({
    method: z.enum(['sampling/createMessage', 'elicitation/create', 'roots/list']),
    params: Json.default({}),
    /** Checks on the client's answer, by JSON path (`$.action`, `$.content.text`); failures land in the journal and assertAllConsumed(). */
    expect: z.record(z.string(), ValueMatchSchema).optional(),
    timeoutMs: z.number().int().positive().optional(),
  })
  .strict();

export const LogLevelSchema = z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/**
 * A notification the server sends while it handles a call, in the order a recording saw them:
 * progress (sent only when the call carries a progress token, with that token) and log messages
 * (at or above the level the client set).
 */
export const CallNotificationSchema = z.discriminatedUnion('method', [
  z
    .object({
      method: z.literal('notifications/progress'),
      params: z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() }).strict(),
    })
    .strict(),
  z
    .object({
      method: z.literal('notifications/message'),
      params: z.object({ level: LogLevelSchema, logger: z.string().optional(), data: z.unknown() }).strict(),
    })
    .strict(),
]);

export const AnswerSchema = z
  .object({
    match: ArgumentsMatchSchema.optional(),
    /** Calls it answers before it is consumed (default 1). */
    times: z.number().int().positive().optional(),
    /** false: never consumed; answers every matching call. */
    consume: z.boolean().optional(),
    /** Delay before the result (after notifications and client requests). */
    latencyMs: z.number().nonnegative().optional(),
    /** Shorthand for one text content block. */
    text: z.string().optional(),
    content: z.array(ContentBlockSchema).optional(),
    structuredContent: Json.optional(),
    isError: z.boolean().optional(),
    /** Answer with a JSON-RPC error instead of a result. */
    error: ProtocolErrorSchema.optional(),
    /** notifications/progress, sent when the call carries a progress token. */
    progress: z
      .array(z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional(), delayMs: z.number().nonnegative().optional() }).strict())
      .optional(),
    /** notifications/message log entries sent before the result. */
    log: z.array(z.object({ level: LogLevelSchema, data: z.unknown(), logger: z.string().optional() }).strict()).optional(),
    /** Progress and log notifications in one ordered list, sent after `log` and `progress` (recordings write this). */
    notifications: z.array(CallNotificationSchema).optional(),
    /** Requests to the client before answering; their results are `{{responses.N...}}` in the answer. */
    requests: z.array(ClientRequestSchema).optional(),
    /** Streamable HTTP: close the call's SSE stream before answering (the client must resume with Last-Event-ID). */
    closeStream: z.boolean().optional(),
    /** The server dies on this call: stdio exits, HTTP sessions and in-memory connections close. */
    crash: z.boolean().optional(),
    /** The call is never answered (until the client cancels it or the mock closes). */
    hang: z.boolean().optional(),
    _meta: Json.optional(),
  })
  .strict();

/** What tools/list says about a tool. */
const toolDefinition = {
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: Json.default({ type: 'object', properties: {} }),
  outputSchema: Json.optional(),
  annotations: Json.optional(),
  _meta: Json.optional(),
};

/** A tool's listed definition from an `after` rule on (its answers stay the tool's). */
export const ToolDefinitionSchema = z.object(toolDefinition).strict();

export const ToolSchema = z
  .object({
    ...toolDefinition,
    /** Not listed until an `after` rule shows it. */
    hidden: z.boolean().optional(),
    answers: z.array(AnswerSchema).default([]),
  })
  .strict();

/** A resource's listing fields (what resources/list shows). */
const resourceDefinition = {
  uri: z.string().min(1),
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  annotations: Annotations.optional(),
  _meta: Json.optional(),
};

/** A resource's listed definition from an `after` rule on (its contents stay the resource's). */
export const ResourceDefinitionSchema = z.object(resourceDefinition).strict();

export const ResourceSchema = z
  .object({
    ...resourceDefinition,
    text: z.string().optional(),
    /** Base64 content (instead of text). */
    blob: z.string().optional(),
    /** Reading it answers this JSON-RPC error. */
    error: ProtocolErrorSchema.optional(),
    /** Not listed (nor readable) until an `after` rule shows it. */
    hidden: z.boolean().optional(),
  })
  .strict();

export const ResourceTemplateSchema = z
  .object({
    /** RFC 6570 template (`test://items/{id}`); its variables are `{{id}}` in `text`. */
    uriTemplate: z.string().min(1),
    name: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    annotations: Annotations.optional(),
    _meta: Json.optional(),
    text: z.string().optional(),
    blob: z.string().optional(),
  })
  .strict();

/** A prompt's listing fields (what prompts/list shows). */
const promptDefinition = {
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.object({ name: z.string().min(1), description: z.string().optional(), required: z.boolean().optional() }).strict()).optional(),
  _meta: Json.optional(),
};

/** A prompt's listed definition from an `after` rule on (its messages stay the prompt's). */
export const PromptDefinitionSchema = z.object(promptDefinition).strict();

export const PromptSchema = z
  .object({
    ...promptDefinition,
    /** Not listed (nor gettable) until an `after` rule shows it. */
    hidden: z.boolean().optional(),
    /** Messages with `{{argument}}` placeholders filled from the call. */
    messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: ContentBlockSchema }).strict()),
  })
  .strict();

export const CompletionSchema = z
  .object({
    ref: z.union([
      z.object({ type: z.literal('ref/prompt'), name: z.string() }).strict(),
      z.object({ type: z.literal('ref/resource'), uri: z.string() }).strict(),
    ]),
    argument: z.string(),
    /** Candidates; those starting with the typed value are offered. */
    values: z.array(z.string()),
  })
  .strict();

const ShowHide = { show: z.array(z.string()).optional(), hide: z.array(z.string()).optional() };

/** A resource's contents from an `after` rule on, for resources/read. */
export const ResourceUpdateSchema = z
  .object({ uri: z.string().min(1), mimeType: z.string().optional(), text: z.string().optional(), blob: z.string().optional() })
  .strict();

/** Something that happens once a number of tool calls have been answered. */
export const AfterSchema = z
  .object({
    /** After this many answered tools/call requests (of `tool`, when given). */
    calls: z.number().int().nonnegative(),
    tool: z.string().optional(),
    /**
     * Change the tool list (show and hide tools by name, `change` a tool's listed definition) and
     * send notifications/tools/list_changed.
     */
    tools: z.object({ ...ShowHide, change: z.array(ToolDefinitionSchema).optional() }).strict().optional(),
    /**
     * Change the resource list (show and hide by URI, `change` a resource's listed definition) and
     * send notifications/resources/list_changed.
     */
    resources: z.object({ ...ShowHide, change: z.array(ResourceDefinitionSchema).optional() }).strict().optional(),
    /**
     * Change the prompt list (show and hide by name, `change` a prompt's listed definition) and send
     * notifications/prompts/list_changed.
     */
    prompts: z.object({ ...ShowHide, change: z.array(PromptDefinitionSchema).optional() }).strict().optional(),
    /** New contents of resources (when given), and notifications/resources/updated to the clients subscribed to each. */
    updated: z.array(ResourceUpdateSchema).optional(),
    /** Every later call crashes the server. */
    crash: z.boolean().optional(),
    /** Every later call hangs. */
    hang: z.boolean().optional(),
  })
  .strict();

export const MCPScenarioSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().min(1),
    serverInfo: z.object({ name: z.string().min(1), version: z.string().min(1), title: z.string().optional() }).strict().optional(),
    instructions: z.string().optional(),
    /** Merged over the capabilities derived from what the scenario declares. */
    capabilities: Json.optional(),
    tools: z.array(ToolSchema).default([]),
    resources: z.array(ResourceSchema).default([]),
    resourceTemplates: z.array(ResourceTemplateSchema).default([]),
    prompts: z.array(PromptSchema).default([]),
    completions: z.array(CompletionSchema).default([]),
    after: z.array(AfterSchema).default([]),
  })
  .strict();

export type ValueMatch = z.infer<typeof ValueMatchSchema>;
export type ArgumentsMatch = z.infer<typeof ArgumentsMatchSchema>;
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type ProtocolError = z.infer<typeof ProtocolErrorSchema>;
export type ClientRequestSpec = z.infer<typeof ClientRequestSchema>;
export type CallNotification = z.infer<typeof CallNotificationSchema>;
export type Answer = z.infer<typeof AnswerSchema>;
export type AnswerInput = z.input<typeof AnswerSchema>;
export type ToolSpec = z.infer<typeof ToolSchema>;
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;
export type ResourceUpdate = z.infer<typeof ResourceUpdateSchema>;
export type ResourceDefinition = z.infer<typeof ResourceDefinitionSchema>;
export type PromptDefinition = z.infer<typeof PromptDefinitionSchema>;
export type ToolInput = z.input<typeof ToolSchema>;
export type ResourceSpec = z.infer<typeof ResourceSchema>;
export type ResourceTemplateSpec = z.infer<typeof ResourceTemplateSchema>;
export type PromptSpec = z.infer<typeof PromptSchema>;
export type CompletionSpec = z.infer<typeof CompletionSchema>;
export type AfterRule = z.infer<typeof AfterSchema>;
/** A validated MCP scenario (defaults applied). */
export type MCPScenario = z.infer<typeof MCPScenarioSchema>;
/** An MCP scenario as written by hand. */
export type MCPScenarioInput = z.input<typeof MCPScenarioSchema>;
