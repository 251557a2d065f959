// Command-line parsing for the CLIs: parseArgs, errors in a line, "did you mean", options npm took.

import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { distance } from '../../infra/did-you-mean.ts';
import { OptionValueError } from '../server/options.ts';

/** A mistake in the command line: the shell (shell.ts) says it in one line and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The parsed flags a command passes on: `S` those that take a value, `B` the switches. */
export type Flags<S extends string, B extends string = never> = Partial<Record<S, string> & Record<B, boolean>>;

/** Every CLI's exit code for an error: 2 for a command-line mistake (usage or a bad value), else 1. */
export const exitCodeOf = (error: unknown): 1 | 2 =>
  error instanceof UsageError || error instanceof OptionValueError ? 2 : 1;

export function parseCommandLine<T extends ParseArgsOptionsConfig>(
  options: T,
  allowPositionals = true,
  args = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
) {
  // Checked first: the option npm kept leaves its value behind as a stray argument.
  const npmTook = takenByNpm(options, args, env);
  if (npmTook) throw new UsageError(npmTook);
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(plainMessage(error as Error & { code?: string }, Object.keys(options)));
  }
}

// parseArgs explains how to pass a positional that starts with '-', which is rarely the mistake.
function plainMessage(error: Error & { code?: string }, names: string[]): string {
  const option = /option '(-[^']+)'/i.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const near = nearest(option.replace(/^-+/, '').split('=')[0] ?? '', names);
    return `Unknown option ${option}${near ? ` (did you mean --${near}?)` : ''}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return `Option ${option.split(/[ ,]/)[0]} needs a value`;
  }
  return error.message;
}

/** The known option a mistyped one was most likely meant to be (`--group` → `--groups`). */
function nearest(typed: string, names: string[]): string | undefined {
  const scored = names.map((name) => ({ name, score: distance(name, typed.toLowerCase()) }));
  const best = scored.sort((a, b) => a.score - b.score)[0];
  return best && best.score <= Math.min(2, Math.floor(typed.length / 2)) ? best.name : undefined;
}

/**
 * `npm start --port 4001` (no `--`): npm keeps `--port`, exports npm_config_port=true and passes only
 * `4001` on; such an option is said, with the command as it should have been written.
 */
function takenByNpm(options: ParseArgsOptionsConfig, args: string[], env: NodeJS.ProcessEnv): string | undefined {
  const given = (name: string) => args.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  const taken = Object.keys(options).filter(
    (name) => env[`npm_config_${name.replaceAll('-', '_')}`] !== undefined && !given(name),
  );
  const script = env.npm_lifecycle_event;
  if (taken.length === 0 || !script) return undefined;
  const command = script === 'start' ? 'npm start' : `npm run ${script}`;
  const written = taken.map((name) => (options[name]?.type === 'string' ? `--${name} <value>` : `--${name}`));
  return `npm took ${taken.map((name) => `--${name}`).join(', ')} for itself: put options after "--", as in ${command} -- ${written.join(' ')}`;
}
