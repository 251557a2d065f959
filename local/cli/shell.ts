// The one shell of every CLI: parse, --help, one-line errors, one exit-code rule, escaped output.

import type { ParseArgsOptionsConfig } from 'node:util';
import { escapeControls, escapeTerminalOutput } from '../terminal-text.ts';
import { exitCodeOf, parseCommandLine, UsageError } from './args.ts';

export type CommandLine<T extends ParseArgsOptionsConfig> = ReturnType<typeof parseCommandLine<T>>;

/**
 * Runs `main` with the parsed command line (`options`: parseArgs', `help` added): --help prints the usage, an
 * error its message in one line on stderr with exitCodeOf(error), after it the usage when the command was
 * given no arguments at all; all output is escaped.
 */
export async function runCli<T extends ParseArgsOptionsConfig, R>(
  cli: { usage: string; options: T; positionals: boolean },
  main: (commandLine: CommandLine<T>) => Promise<R> | R,
  args = process.argv.slice(2),
): Promise<R> {
  escapeTerminalOutput();
  try {
    const options: T = { ...cli.options, help: { type: 'boolean' } };
    const commandLine = parseCommandLine(options, cli.positionals, args);
    if ((commandLine.values as { help?: boolean }).help) {
      console.log(cli.usage);
      process.exit(0);
    }
    return await main(commandLine);
  } catch (error) {
    const message = escapeControls(error instanceof Error ? error.message : String(error));
    console.error(error instanceof UsageError && args.length === 0 ? `${message}\n\n${cli.usage}` : message);
    process.exit(exitCodeOf(error));
  }
}
