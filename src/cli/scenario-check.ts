import { formatIssue, readScenarioFiles } from '../scenario/loader.ts';

/**
 * `ghostwire scenario check <file|dir>...`: validates scenario files the way the mock loads them
 * and prints counts, or every problem (exit 1). `--json` prints a machine-readable report.
 */

export interface CommandIO {
  out: (text: string) => void;
  err: (text: string) => void;
}

const defaultIO: CommandIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

const USAGE = `usage: ghostwire scenario check [--json] <file|dir>...

Validates scenario files (a directory: every *.json below it, in name order) and
prints what they hold, or every problem with file:line:column, JSON path and
what was expected. Warnings (steps that can never answer, ignored settings)
do not fail the check. Exit code 0 when all are valid, 1 otherwise.
`;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Checks scenario files; returns the exit code.
 * @example
 *   process.exitCode = await scenarioCheck(['fixtures/scenarios']);
 */
async function scenarioCheck(args: string[], io: CommandIO = defaultIO): Promise<number> {
  const json = args.includes('--json');
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--json');
  const paths = args.filter((a) => !a.startsWith('-'));
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  if (unknown.length > 0 || paths.length === 0) {
    io.err(`${unknown.length ? `ghostwire scenario check: unknown option ${unknown[0]}\n\n` : ''}${USAGE}`);
    return 2;
  }
  const result = readScenarioFiles(paths);
  const steps = result.scenarios.reduce((n, s) => n + s.steps.length, 0);
  if (json) {
    io.out(
      `${JSON.stringify(
        {
          ok: result.issues.length === 0,
          files: result.files.length,
          scenarios: result.scenarios.map((s) => ({ name: s.name, priority: s.priority, steps: s.steps.length })),
          issues: result.issues,
          warnings: result.warnings,
        },
        null,
        2,
      )}\n`,
    );
    return result.issues.length ? 1 : 0;
  }
  if (result.warnings.length > 0) {
    io.err(`${result.warnings.map((w) => `warning: ${formatIssue(w)}`).join('\n')}\n`);
  }
  if (result.issues.length > 0) {
    const files = new Set(result.issues.map((i) => i.file)).size;
    io.err(`${result.issues.map(formatIssue).join('\n')}\n\n${plural(result.issues.length, 'problem')} in ${plural(files, 'file')}\n`);
    return 1;
  }
  const lines = result.perFile.map(({ file, scenarios }) => {
    const names = scenarios.map((s) => `${s.name} (${plural(s.steps.length, 'step')})`).join(', ');
    return `  ${file}: ${names || 'no scenarios'}`;
  });
  const declared = result.perFile.reduce((n, f) => n + f.scenarios.length, 0);
  const merged = declared - result.scenarios.length;
  const mergeNote = merged > 0 ? ` (${merged} merged by name)` : '';
  io.out(
    `ok: ${plural(result.files.length, 'file')}, ${plural(result.scenarios.length, 'scenario')}${mergeNote}, ${plural(steps, 'step')}\n${lines.join('\n')}\n`,
  );
  return 0;
}

/**
 * `ghostwire scenario <subcommand>`: dispatches `check`.
 * @example
 *   process.exitCode = await scenarioCommand(['check', 'fixtures/scenarios']);
 */
export async function scenarioCommand(args: string[], io: CommandIO = defaultIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'check') return scenarioCheck(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(USAGE);
    return sub === undefined ? 2 : 0;
  }
  io.err(`ghostwire scenario: unknown subcommand "${sub}"\n\n${USAGE}`);
  return 2;
}
