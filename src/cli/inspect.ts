/**
 * `ghostwire inspect <golden.json>`: prints a golden as a conversation. Colour in a terminal, plain in a pipe
 * (and with NO_COLOR); FORCE_COLOR=1 forces colour.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from './main.ts';
import { inspectGolden } from '../goldens/inspect.ts';
import { readGolden } from '../goldens/store.ts';

/**
 * Runs the command; returns the exit code.
 * @example process.exitCode = await inspect(['goldens/examples/goldens/weather.json'])
 */
export const inspect: Command = async (args) => {
  const files = args.filter((a) => !a.startsWith('-')).flatMap(expand);
  if (files.length === 0 || args.includes('--help') || args.includes('-h')) {
    process.stdout.write('usage: ghostwire inspect <golden.json | directory> [...] [--color | --no-color]\n');
    return files.length === 0 && !args.includes('--help') && !args.includes('-h') ? 2 : 0;
  }
  const color = args.includes('--no-color')
    ? false
    : args.includes('--color') || (!!process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') || (!!process.stdout.isTTY && !process.env.NO_COLOR);
  let code = 0;
  for (const file of files) {
    try {
      const golden = await readGolden(resolve(file));
      if (!golden) {
        process.stderr.write(`ghostwire inspect: ${file}: no such file\n`);
        code = 1;
        continue;
      }
      process.stdout.write(inspectGolden(golden, { color, file }));
    } catch (error) {
      process.stderr.write(`ghostwire inspect: ${(error as Error).message}\n`);
      code = 1;
    }
  }
  return code;
};

/** A directory stands for every golden under it, in path order. */
function expand(path: string): string[] {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return [path];
  }
  if (!isDir) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => relative(process.cwd(), join(e.parentPath, e.name)) || e.name)
    .sort();
}
