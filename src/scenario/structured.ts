/**
 * Structured answers: `respond.json` checked against the schema the request actually sends (or
 * generated from it), and scripted tool calls checked against `strict` tools. A value that does not
 * fit is a test-authoring error: the scenario promises an answer the real model could never return.
 * Validation is the MCP layer's one validator (ajv, the schema's own draft; 2020-12 by default, as
 * OpenAI's and Anthropic's structured-output schemas are written); generation is json-schema-faker,
 * seeded, so the same schema and seed give the same value.
 */
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { ArgumentValidator, type ArgumentIssue } from '../mcp/validate-args.ts';
import type { CanonicalRequest, CanonicalToolCall } from './canonical.ts';

/** A scenario that promises an answer the request's own schema rules out; its message names the step and path. */
export class AuthoringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthoringError';
  }
}

/** Default seed of `{ "$generate": true }`: fixed, so a generated answer is stable across runs. */
const DEFAULT_SEED = 1;

function isGenerate(value: unknown): value is { $generate: true; seed?: number } {
  return typeof value === 'object' && value !== null && (value as { $generate?: unknown }).$generate === true;
}

function pathOf(issue: ArgumentIssue): string {
  const parts = [...issue.path];
  if (issue.keyword === 'required' && issue.property) parts.push(issue.property);
  if (issue.keyword === 'additionalProperties' && issue.property) parts.push(issue.property);
  return parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
}

function describe(issue: ArgumentIssue): string {
  if (issue.keyword === 'required') return 'is required by the schema';
  if (issue.keyword === 'additionalProperties') return 'is not allowed by the schema (additionalProperties: false)';
  if (issue.keyword === 'enum') return `must be one of ${(issue.allowed ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.message;
}

/**
 * Checks values against request schemas and generates instances of them. One per engine (its
 * compiled schemas are cached, bounded in bytes).
 * @example
 *   const structured = new StructuredAnswers();
 *   structured.answer({ temperature: 'warm' }, request, 'weather#2'); // throws AuthoringError: weather#2: respond.json.temperature: must be number
 */
export class StructuredAnswers {
  readonly #validator = new ArgumentValidator({ defaultDraft: '2020' });

  /** The schema a structured answer to `request` must fit: the response format's, else the forced tool's parameters. */
  schemaFor(request: CanonicalRequest): unknown | null {
    if (request.responseFormat) return request.responseFormat.schema;
    if (request.forcedTool) return request.tools.find((t) => t.name === request.forcedTool)?.parameters ?? null;
    return null;
  }

  /**
   * The value of `respond.json` for this request: generated from the request's schema for
   * `{ $generate: true }`, else the scripted value; checked against the schema either way.
   */
  answer(spec: unknown, request: CanonicalRequest, step: string): unknown {
    const schema = this.schemaFor(request);
    let value = spec;
    if (isGenerate(spec)) {
      if (schema === null || typeof schema !== 'object') {
        throw new AuthoringError(
          `${step}: respond.json.$generate needs a request that sends a JSON Schema (a json_schema response format or a forced tool), ` +
            `but this ${request.provider} request ${request.responseFormat ? 'asks for JSON without a schema' : 'asks for no structured output'}`,
        );
      }
      try {
        value = generateSync(schema as JsonSchema, { seed: spec.seed ?? DEFAULT_SEED, alwaysFakeOptionals: false });
      } catch (err) {
        throw new AuthoringError(`${step}: respond.json.$generate could not generate an instance of the request's schema: ${(err as Error).message}`);
      }
    }
    if (schema !== null) this.#check(schema, value, `${step}: respond.json`, 'the response format');
    return value;
  }

  /** Checks scripted calls of `strict` tools against their parameters (the API guarantees strict arguments fit). */
  checkToolCalls(calls: readonly CanonicalToolCall[], request: CanonicalRequest, step: string): void {
    calls.forEach((call, i) => {
      const tool = request.tools.find((t) => t.name === call.name);
      if (!tool?.strict || tool.parameters === undefined) return;
      this.#check(tool.parameters, call.arguments, `${step}: respond.toolCalls[${i}].arguments`, `strict tool "${call.name}"`);
    });
  }

  #check(schema: unknown, value: unknown, where: string, what: string): void {
    const issues = this.#validator.check(schema, value);
    if (issues.length === 0) return;
    const lines = [...new Set(issues.map((issue) => `${where}${pathOf(issue)}: ${describe(issue)}`))];
    throw new AuthoringError(`${lines.join('; ')} (the value does not fit the schema of ${what} the request sent)`);
  }
}
