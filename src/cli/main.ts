/**
 * The `ghostwire` command: a table of subcommands, each in its own file.
 * A subcommand receives its arguments and returns an exit code; it prints its own errors.
 */
export type Command = (args: string[]) => Promise<number>;

interface CommandEntry {
  summary: string;
  load: () => Promise<Command>;
}

// Loaded lazily so `ghostwire serve` does not pay for the proxy's or Vitest's imports.
const COMMANDS: Record<string, CommandEntry> = {
  serve: { summary: 'run the mock LLM on a real port (--scenarios, --port, --host)', load: async () => (await import('./serve.ts')).serve },
  scenario: { summary: 'check <file|dir>: validate scenario files', load: async () => (await import('./scenario-check.ts')).scenarioCommand },
  test: { summary: 'run Vitest; --record-goldens / --record-missing plus any Vitest option', load: async () => (await import('./test.ts')).test },
  inspect: { summary: '<golden.json>: print a golden as a conversation', load: async () => (await import('./inspect.ts')).inspect },
  mcp: { summary: 'serve --scenarios FILE [--port N | --stdio] | check FILE: mock MCP servers from scenarios', load: async () => (await import('./mcp.ts')).mcpCommand },
  proxy: { summary: 'serve|search-tools|recommend-tools|refresh|eval: the MCP proxy', load: async () => (await import('./proxy.ts')).proxyCommand },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: ghostwire <command> [options]   (ghostwire --version prints the version)\n\ncommands:\n${lines.join('\n')}\n`;
}

/**
 * Runs the command line; returns the exit code.
 * @example
 *   process.exitCode = await main(['serve', '--scenarios', 'fixtures/scenarios']);
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    const { createRequire } = await import('node:module');
    process.stdout.write(`${(createRequire(import.meta.url)('ghostwire/package.json') as { version: string }).version}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 1;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`ghostwire: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  const command = await entry.load();
  return command(rest);
}
