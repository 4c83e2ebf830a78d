import { z } from 'zod';
import { describeSchema } from '../../scenario/json-schema.ts';
import { MCPScenarioSchema } from './schema.ts';

/**
 * The JSON Schema of an MCP scenario file, generated from the zod schema and written to
 * schema/mcp-scenario.schema.json by scripts/write-schema.ts (draft-07, as the LLM scenarios').
 */

const DESCRIPTIONS: Record<string, string> = {
  $schema: 'Path or URL of this JSON Schema, for editor completion.',
  name: 'Scenario name (also the server name when serverInfo is absent).',
  serverInfo: 'The server\'s name and version in the initialize result.',
  instructions: 'Instructions in the initialize result.',
  capabilities: 'Merged over the capabilities derived from what is declared (tools, resources, prompts, completions, logging).',
  tools: 'The tools: listed by tools/list, answered by tools/call from their answers.',
  'tools.inputSchema': 'JSON Schema of the arguments, listed as given (any dialect).',
  'tools.hidden': 'Not listed until an `after` rule shows it.',
  'tools.answers': 'Answers in order; a call gets the first one not used up whose match holds.',
  'tools.answers.match': 'Constraints on the arguments: `arguments` by name, `argumentsEqual` (whole object), `jsonPath`.',
  'tools.answers.times': 'Calls it answers before it is used up (default 1).',
  'tools.answers.consume': 'false: never used up.',
  'tools.answers.text': 'A text block; {{argument}}, {{arguments.x}}, {{progressToken}}, {{responses.0.x}} are filled in.',
  'tools.answers.content': 'Content blocks: text, image, audio, resource (embedded), resource_link.',
  'tools.answers.structuredContent': 'Structured result (also sent as JSON text when no content is given).',
  'tools.answers.isError': 'A tool error result.',
  'tools.answers.error': 'A JSON-RPC error instead of a result.',
  'tools.answers.latencyMs': 'Delay before the result.',
  'tools.answers.progress': 'notifications/progress sent before the result when the call has a progress token.',
  'tools.answers.log': 'notifications/message entries sent before the result.',
  'tools.answers.requests': 'Requests to the client (sampling, elicitation, roots) before answering; `expect` checks the client\'s answer.',
  'tools.answers.closeStream': 'Streamable HTTP: close the SSE stream before answering (the client resumes with Last-Event-ID).',
  'tools.answers.crash': 'The server crashes on this call.',
  'tools.answers.hang': 'The call is never answered.',
  resources: 'Resources listed by resources/list and read by resources/read.',
  resourceTemplates: 'Resource templates; a read URI matching one gets its text with {{variable}} filled.',
  prompts: 'Prompts; prompts/get fills {{argument}} in the messages.',
  completions: 'Values offered by completion/complete for a prompt or resource argument.',
  'resources.hidden': 'Not listed (nor readable) until an `after` rule shows it.',
  'prompts.hidden': 'Not listed (nor gettable) until an `after` rule shows it.',
  after: 'What happens after N answered tool calls: list changes (with their list_changed notifications), new resource contents (with notifications/resources/updated), crash, hang.',
  'after.tools': 'Show and hide tools by name, `change` listed definitions; sends notifications/tools/list_changed.',
  'after.tools.change': 'Tools\' listed definitions from now on (by name; their answers stay).',
  'after.resources': 'Show and hide resources by URI, `change` listed definitions; sends notifications/resources/list_changed.',
  'after.resources.change': 'Resources\' listed definitions from now on (by URI; their contents stay).',
  'after.prompts': 'Show and hide prompts by name, `change` listed definitions; sends notifications/prompts/list_changed.',
  'after.prompts.change': 'Prompts\' listed definitions from now on (by name; their messages stay).',
  'after.updated': 'New contents of resources (when text or blob is given), and notifications/resources/updated to the clients subscribed to each.',
};

type Json = Record<string, unknown>;

/**
 * The MCP scenario JSON Schema as an object.
 * @example
 *   mcpScenarioJsonSchema().title // 'ghostwire MCP scenario file'
 */
export function mcpScenarioJsonSchema(): Json {
  const generated = z.toJSONSchema(MCPScenarioSchema, { io: 'input', target: 'draft-7' }) as Json;
  describeSchema(generated, DESCRIPTIONS);
  const { $schema, ...rest } = generated;
  return { $schema, title: 'ghostwire MCP scenario file', description: 'One mock MCP server: what it lists and how it answers.', ...rest };
}

/**
 * The exact text of schema/mcp-scenario.schema.json.
 * @example
 *   writeFileSync('schema/mcp-scenario.schema.json', renderMCPScenarioJsonSchema());
 */
export function renderMCPScenarioJsonSchema(): string {
  return `${JSON.stringify(mcpScenarioJsonSchema(), null, 2)}\n`;
}
