/**
 * `ghostwire test [--record-goldens | --record-missing] [any vitest options]`: runs Vitest through its
 * Node API, because Vitest's own CLI rejects options it does not know. Runs once unless `--watch`/`watch`.
 */
import type { Command } from './main.ts';

const USAGE = `usage: ghostwire test [--record-goldens | --record-missing] [vitest options and filters]

  --record-goldens   record every golden again through the real provider (or GHOSTWIRE_UPSTREAM)
  --record-missing   record only goldens that do not exist yet; replay the others
  everything else    passed to Vitest unchanged (-u updates expected outputs from replay)
`;

/** Splits ghostwire's own flags from Vitest's. */
export function splitTestArgs(args: readonly string[]): { record: 'all' | 'missing' | null; vitestArgs: string[]; help: boolean } {
  let record: 'all' | 'missing' | null = null;
  let help = false;
  const vitestArgs: string[] = [];
  for (const arg of args) {
    if (arg === '--record-goldens') record = 'all';
    else if (arg === '--record-missing') record = 'missing';
    else {
      if (arg === '--help' || arg === '-h') help = true;
      vitestArgs.push(arg);
    }
  }
  return { record, vitestArgs, help };
}

/**
 * Runs the tests; returns Vitest's exit code.
 * @example process.exitCode = await test(['--record-goldens', 'examples/goldens.test.ts'])
 */
export const test: Command = async (args) => {
  const { record, vitestArgs, help } = splitTestArgs(args);
  if (help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (record) process.env.GHOSTWIRE_RECORD = record === 'all' ? '1' : 'missing';
  const { createCLI, parseCLI, startVitest } = await import('vitest/node');
  let parsed: ReturnType<typeof parseCLI>;
  try {
    // parseCLI accepts anything; check options the way Vitest's own CLI does, before starting a run.
    const cli = createCLI();
    cli.parse(['node', 'vitest', ...vitestArgs], { run: false });
    const command = cli.matchedCommand ?? cli.globalCommand;
    command.checkUnknownOptions();
    command.checkOptionValue();
    parsed = parseCLI(['vitest', ...vitestArgs]);
  } catch (error) {
    process.stderr.write(`ghostwire test: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { filter, options } = parsed;
  if (!options.watch) {
    options.run = true;
    options.watch = false;
  }
  process.exitCode = undefined;
  const vitest = await startVitest(filter, options);
  if (vitest.shouldKeepServer()) return 0;
  return Number(process.exitCode ?? 0);
};
