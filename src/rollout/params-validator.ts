import type { ErrorObject } from 'ajv';
import { ArgumentValidator, type ArgumentIssue } from '../mcp/index.ts';

const MAX_MESSAGES = 3;

/**
 * Validates tool params with the shared validator (src/mcp: ajv in the schema's own draft; a schema
 * naming no draft is read as 2020-12, as Python jsonschema's `validate()` does in ROLL) and reports
 * problems in a short line a model can act on. The structured issues and ajv's ErrorObjects stay
 * available for callers that render them their own way (ROLL's jsonschema text).
 *
 * @example
 * const v = new ParamsValidator();
 * v.check({ type: 'object', required: ['q'] }, {}) // "missing required param 'q'"
 */
export class ParamsValidator {
  readonly #validator = new ArgumentValidator({ defaultDraft: '2020' });

  /** ajv's errors, every one and in ajv's order (empty when the params fit or the schema cannot be compiled). */
  errors(schema: unknown, params: unknown): ErrorObject[] {
    return this.#validator.errors(schema, params);
  }

  /** The structured issues (empty when the params fit or the schema cannot be compiled). */
  issues(schema: unknown, params: Record<string, unknown>): ArgumentIssue[] {
    return this.#validator.check(schema, params);
  }

  /** Returns undefined when the params are valid (or the schema cannot be compiled), else a readable message. */
  check(schema: unknown, params: Record<string, unknown>): string | undefined {
    const issues = this.issues(schema, params);
    return issues.length === 0 ? undefined : formatIssues(issues);
  }
}

/**
 * Turns issues into one short line, e.g. `"limit" must be integer; missing required param 'query'`.
 *
 * @example
 * formatIssues([{ pointer: '/limit', path: ['limit'], keyword: 'type', message: 'must be integer' }])
 */
function formatIssues(issues: ArgumentIssue[]): string {
  const lines = [...new Set(issues.map(formatOne))];
  const shown = lines.slice(0, MAX_MESSAGES).join('; ');
  return lines.length > MAX_MESSAGES ? `${shown} (and ${lines.length - MAX_MESSAGES} more)` : shown;
}

function formatOne(issue: ArgumentIssue): string {
  const where = issue.path.length ? `"${issue.path.join('.')}"` : 'params';
  switch (issue.keyword) {
    case 'required':
      return issue.path.length ? `${where} is missing required property '${issue.property}'` : `missing required param '${issue.property}'`;
    case 'additionalProperties':
      return `${where} has unknown property '${issue.property}'`;
    case 'enum':
      return `${where} must be one of ${(issue.allowed ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${issue.message}`;
  }
}
