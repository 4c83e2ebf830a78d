// Reasoning and structured outputs in a user's project with ghostwire installed from its packed tarball
// (fixtures/user-project/reasoning.case.ts, under the project's own vitest.config.ts and MSW setup file):
// a thinking-enabled Anthropic tool loop, a loop that drops its thinking refused as Claude refuses it,
// `chat.completions.parse` returning the scripted object; and a scripted object that does not fit the
// code's schema failing the user's test with a message naming the step and the JSON path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explain } from './testing/packed.ts';
import { installUserProject, type UserProject } from './testing/user-project.ts';

describe('a user project: reasoning and structured outputs, installed from the tarball', () => {
  let user: UserProject | null = null;

  beforeAll(async () => {
    user = await installUserProject();
  }, 180_000);

  afterAll(async () => {
    await user?.remove();
  });

  it('a thinking tool loop and parse() pass; the loop without its thinking is refused', { timeout: 120_000 }, async () => {
    const result = await user!.vitest(['reasoning.case.ts'], { CI: '1' });
    expect(result.code, explain(result)).toBe(0);
    expect(result.output).toMatch(/Tests\s+3 passed \| 1 skipped/);
  });

  it('a scripted object that does not fit the schema fails the test, naming the step and the path', { timeout: 120_000 }, async () => {
    const result = await user!.vitest(['reasoning.case.ts', '-t', 'does not fit'], { CI: '1', GW_AUTHORING: '1' });
    expect(result.code, explain(result)).toBe(1);
    expect(result.output).toMatch(/weather#\d: respond\.json\.temperature: must be number/);
    expect(result.output).toMatch(/1 failed/);
  });
});
