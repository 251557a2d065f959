// The one shell of every CLI: parse, --help, one-line errors, one exit-code rule, escaped output.

import type { ParseArgsOptionsConfig } from 'node:util';
import { escapeControls, escapeTerminalOutput } from '../terminal-text.ts';
import { exitCodeOf, parseCommandLine, UsageError } from './args.ts';

export interface Cli<T extends ParseArgsOptionsConfig> {
  /** Printed on --help, and after the mistake when the command was given no arguments at all. */
  usage: string;
  /** parseArgs' options; `help` is added. */
  options: T;
  positionals: boolean;
}

export type CommandLine<T extends ParseArgsOptionsConfig> = ReturnType<typeof parseCommandLine<T>>;

/**
 * Runs `main` with the parsed command line: --help prints the usage, an error its message in one line on
 * stderr with exitCodeOf(error); all output is escaped.
 */
export async function runCli<T extends ParseArgsOptionsConfig, R>(
  cli: Cli<T>,
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
    console.error(errorText(error, cli.usage, args));
    process.exit(exitCodeOf(error));
  }
}

/** The message on one line, controls escaped; with no arguments at all, the usage too. */
function errorText(error: unknown, usage: string, args: readonly string[]): string {
  const message = escapeControls(error instanceof Error ? error.message : String(error));
  return error instanceof UsageError && args.length === 0 ? `${message}\n\n${usage}` : message;
}
