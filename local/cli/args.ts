// Command-line parsing for the local CLIs: node's parseArgs, with its errors said in a line.

import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

/** A mistake in the command line: the CLI prints it with its usage text and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseCommandLine<T extends ParseArgsOptionsConfig>(options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: process.argv.slice(2), options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(plainMessage(error as Error & { code?: string }));
  }
}

// parseArgs explains how to pass a positional that starts with '-', which is rarely the mistake.
function plainMessage(error: Error & { code?: string }): string {
  const option = /option '(-[^']+)'/i.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `Unknown option ${option}`;
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return `Option ${option.split(/[ ,]/)[0]} needs a value`;
  }
  return error.message;
}
