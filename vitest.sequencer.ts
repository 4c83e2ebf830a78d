// The order test files start in: longest first, so the run does not end waiting on one long file that
// started last. Vitest's own order knows durations only from an earlier run's cache, which a fresh clone
// (CI) lacks; it then runs larger files first, project by project, and the long files are small ones that
// start Node processes (a user's Vitest, the CLI, fixture MCP servers, npm pack). So: with every file's
// duration cached, longest first; otherwise files that start processes first, then larger first.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What a test file that starts Node processes contains. */
const STARTS_PROCESSES = /installPacked|installUserProject|runGhostwireTest|stdioFixture|startHttpFixture|stdioEntry|from 'node:child_process'/;

/**
 * Longest-first file order, for `sequence.sequencer`.
 * @example defineConfig({ test: { sequence: { sequencer: LongestFirstSequencer } } })
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cached = files.map((spec) => this.ctx.cache.getTestSpecificationResult(spec));
    if (cached.every((result) => result !== undefined)) {
      const duration = new Map(files.map((spec, i) => [spec, cached[i]!.duration ?? 0]));
      return [...files].sort((a, b) => duration.get(b)! - duration.get(a)!);
    }
    const weight = new Map(
      files.map((spec) => {
        const source = readFileSync(spec.moduleId, 'utf8');
        return [spec, (STARTS_PROCESSES.test(source) ? 1e9 : 0) + source.length];
      }),
    );
    return [...files].sort((a, b) => weight.get(b)! - weight.get(a)!);
  }
}
