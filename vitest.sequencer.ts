// The order test files start in: longest first, so the run does not end waiting on one long file that
// started last. Vitest's own order knows durations only from an earlier run's cache, which a fresh clone
// (CI) lacks; it then runs larger files first, project by project, and the long files are small ones that
// start Node processes (a user's Vitest, the CLI, fixture MCP servers, npm pack). So: with every file's
// duration cached, longest first; otherwise files that start processes first, then larger first.
//
// Files stay grouped by project, the projects ordered by their longest file. Vitest keeps a worker of an
// `isolate: false` project for the next file only if the next file in the queue belongs to the same
// project; interleaving projects ended ~70 workers for the run's 180 shared files, each new one importing the
// SDKs and msw again.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What a test file that starts Node processes contains. */
const STARTS_PROCESSES = /installPacked|installUserProject|runGhostwireTest|stdioFixture|startHttpFixture|stdioEntry|from 'node:child_process'/;

/**
 * Longest-first file order within each project, projects by their longest file, for `sequence.sequencer`.
 * @example defineConfig({ test: { sequence: { sequencer: LongestFirstSequencer } } })
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cached = files.map((spec) => this.ctx.cache.getTestSpecificationResult(spec));
    const weight = new Map<TestSpecification, number>(
      cached.every((result) => result !== undefined)
        ? files.map((spec, i) => [spec, cached[i]!.duration ?? 0])
        : files.map((spec) => {
            const source = readFileSync(spec.moduleId, 'utf8');
            return [spec, (STARTS_PROCESSES.test(source) ? 1e9 : 0) + source.length];
          }),
    );
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of [...files].sort((a, b) => weight.get(b)! - weight.get(a)!)) {
      const group = byProject.get(spec.project.name) ?? [];
      group.push(spec);
      byProject.set(spec.project.name, group);
    }
    // Each group is already longest first, and groups were created in the order of their longest file.
    return [...byProject.values()].flat();
  }
}
