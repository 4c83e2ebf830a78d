import { z } from 'zod';
import { ScenarioFileSchema } from './schema.ts';

/**
 * The JSON Schema of a scenario file, generated from the zod schema (the single source of truth)
 * and written to schema/scenario.schema.json by scripts/write-schema.ts. Draft-07, because every
 * editor understands it (zod emits the same keywords for 2020-12 here). Descriptions are added
 * here, by property path, so editors show them on hover and completion.
 */

const DESCRIPTIONS: Record<string, string> = {
  $schema: 'Path or URL of this JSON Schema, for editor completion.',
  name: 'Scenario name. Files merge by name: a later scenario of the same name replaces the earlier one\'s steps and priority; variables merge.',
  priority: 'Scenarios with higher priority are tried first (default 0).',
  variables: 'Values for {{name}} in produced text; {{model}} and {{lastUserMessage}} are always available.',
  steps: 'Steps in order; a request is answered by the first unconsumed step whose match holds.',
  'steps.match': 'Constraints on the request; absent means a catch-all.',
  'steps.match.provider': 'The wire API the request came in on.',
  'steps.match.path': 'The URL path the request arrived on, after any session prefix.',
  'steps.match.model': 'The requested model: exact string, { equals }, { contains } or { regex, flags }.',
  'steps.match.stream': 'Whether the request asks for a stream.',
  'steps.match.lastMessage': 'Constraints on the last message of the conversation.',
  'steps.match.messages': 'Each entry must be met by some message of the conversation.',
  'steps.match.tools': 'The request offers at least these tools (by name).',
  'steps.match.toolResults': 'true: the request carries tool results; an array: results for these tools.',
  'steps.match.headers': 'Request headers (lower-case names) and the values they must match.',
  'steps.respond': 'What the step answers.',
  'steps.respond.text': 'Text of the answer; {{variables}} are filled in.',
  'steps.respond.toolCalls': "Tool calls of the answer; an id is kept as given, or minted in the API's own shape (call_…, toolu_01…) when absent.",
  'steps.respond.expectToolResults': 'The next request must carry results for these tool calls.',
  'steps.respond.usage': 'Reported token usage.',
  'steps.respond.finishReason': 'Canonical finish reason, rendered per provider (tool_calls → tool_use, stop → STOP, ...).',
  'steps.respond.stream': 'How to stream the answer when the request streams.',
  'steps.respond.stream.chunkSize': 'Characters per text delta (and per tool-argument delta).',
  'steps.respond.stream.chunkDelayMs': 'Delay between stream frames.',
  'steps.respond.stream.chunks': 'Explicit text deltas; replace the automatic chunking of text.',
  'steps.respond.stream.disconnectAfterChunks': 'Cut the connection after this many frames.',
  'steps.respond.stream.errorAfterChunks': "After this many frames, end the stream with the provider's own error event (needs error).",
  'steps.respond.stream.error': "What the mid-stream error event says: message, and optionally the provider's error type and a status (default 500) that picks the type left out.",
  'steps.respond.stream.error.message': 'The error message the SDK reports.',
  'steps.respond.stream.error.type': "The provider's error type (overloaded_error, server_error, ThrottlingException, UNAVAILABLE, ...).",
  'steps.respond.stream.error.status': 'An HTTP status (400-599) the error stands for; picks the type when none is given (Gemini sends it as the code).',
  'steps.respond.latencyMs': 'Delay before the first byte.',
  'steps.respond.error': 'Answer with an error in the provider\'s own shape.',
  'steps.respond.embeddings': 'Embeddings: fixed vectors, one per input (cycled when fewer).',
  'steps.respond.headers': 'Extra response headers.',
  'steps.respond.echoHeaders': 'Request headers copied onto the response.',
  'steps.times': 'How many requests the step answers before it is consumed (default 1).',
  'steps.consume': 'false: the step is never consumed and answers every matching request.',
};

type Json = Record<string, unknown>;

/**
 * Adds `descriptions` (keyed by dotted property path) to a generated JSON Schema, in place. Walks
 * object schemas; array items, unions and record values do not add to the path.
 * @example
 *   describeSchema(z.toJSONSchema(Schema) as Record<string, unknown>, { name: 'The name.' });
 */
export function describeSchema(node: unknown, descriptions: Readonly<Record<string, string>>, path: readonly string[] = []): void {
  if (Array.isArray(node)) return node.forEach((n) => describeSchema(n, descriptions, path));
  if (node === null || typeof node !== 'object') return;
  const obj = node as Json;
  if (obj.properties && typeof obj.properties === 'object') {
    for (const [key, child] of Object.entries(obj.properties as Json)) {
      const childPath = [...path, key];
      const text = descriptions[childPath.join('.')];
      if (text && child && typeof child === 'object') (child as Json).description ??= text;
      describeSchema(child, descriptions, childPath);
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) if (key in obj) describeSchema(obj[key], descriptions, path);
}

/**
 * The scenario file JSON Schema as an object.
 * @example
 *   const schema = scenarioJsonSchema(); // schema.title === 'ghostwire scenario file'
 */
export function scenarioJsonSchema(): Json {
  const generated = z.toJSONSchema(ScenarioFileSchema, { io: 'input', target: 'draft-7' }) as Json;
  describeSchema(generated, DESCRIPTIONS);
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: 'ghostwire scenario file',
    description: 'One scenario or an array of scenarios for the ghostwire mock LLM.',
    ...rest,
  };
}

/**
 * The exact text of schema/scenario.schema.json (two-space JSON, trailing newline).
 * @example
 *   writeFileSync('schema/scenario.schema.json', renderScenarioJsonSchema());
 */
export function renderScenarioJsonSchema(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}
