import { isDeepStrictEqual } from 'node:util';
import type { Scenario } from './schema.ts';
import type { PathIssue } from './issues.ts';

/**
 * Warnings for scenarios that are valid but almost certainly not what was meant: steps that can
 * never answer, settings that are ignored. `ghostwire scenario check` prints them; loading does not fail.
 */

/**
 * Lints one validated scenario; paths are relative to it (prefix them for array files).
 * @example
 *   lintScenario({ name: 'x', priority: 0, variables: {}, steps: [{ respond: {}, consume: false }, { respond: {} }] });
 *   // [{ path: ['steps', 1], message: 'never answers: steps[0] before it matches every request and is never consumed' }]
 */
export function lintScenario(scenario: Scenario): PathIssue[] {
  const out: PathIssue[] = [];
  scenario.steps.forEach((step, i) => {
    const at = (...rest: Array<string | number>): Array<string | number> => ['steps', i, ...rest];
    const shadow = scenario.steps.slice(0, i).findIndex((earlier) => {
      if (earlier.consume !== false) return false;
      const m = earlier.match ?? {};
      return Object.keys(m).length === 0 || isDeepStrictEqual(m, step.match ?? {});
    });
    if (shadow >= 0) {
      const what = Object.keys(scenario.steps[shadow].match ?? {}).length === 0 ? 'matches every request' : 'has the same match';
      out.push({ path: at(), message: `never answers: steps[${shadow}] before it ${what} and is never consumed` });
    }
    if (step.consume === false && step.times !== undefined) {
      out.push({ path: at('times'), message: 'ignored: the step has consume: false, so it is never consumed' });
    }
    const { respond } = step;
    if (respond.expectToolResults && !respond.toolCalls?.length) {
      out.push({ path: at('respond', 'expectToolResults'), message: 'has no effect: the step makes no tool calls' });
    }
    if (respond.error && (respond.text !== undefined || respond.toolCalls?.length || respond.embeddings)) {
      out.push({ path: at('respond', 'error'), message: 'the error is answered; text, toolCalls and embeddings of this step are never sent' });
    }
    const provider = step.match?.provider;
    if (respond.embeddings && provider && provider !== 'embeddings') {
      out.push({ path: at('respond', 'embeddings'), message: `only embeddings requests use vectors, but this step matches provider "${provider}"` });
    }
    if (provider === 'embeddings' && (respond.text !== undefined || respond.toolCalls?.length)) {
      out.push({ path: at('respond'), message: 'embeddings requests get vectors; text and toolCalls are not sent' });
    }
  });
  return out;
}
