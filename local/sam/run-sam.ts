// Runs one `sam local` command, its output trimmed, stopped gracefully on Ctrl+C or SIGTERM.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Lines SAM prints on every run that say nothing about this one (~30 for a CDK template's other resources). */
const NOISE = [
  /Cannot detect function id from aws:cdk:path metadata/,
  /^No current session found, using default AWS::AccountId/,
  // start-api: true of `sam build` projects, not here (the bundle is built at synth), and Flask's banner.
  /^You can now browse to the above endpoints/,
  /WARNING: This is a development server/,
  /^\s*$/,
];

/** `exited`: sam's exit code (130 when stopped by a signal); `stop`: as Ctrl+C, then SIGKILL after `graceMs`. */
export function runSam(args: string[], { onLine }: { onLine?: (line: string) => void } = {}) {
  // Its own process group: Ctrl+C reaches SAM once, from stop(), not twice (a second SIGINT skips its clean-up).
  const child = spawn('sam', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // stdout carries the invocation's result (invoke): passed through untouched, for pipes and jq;
  // a terminal gets the line end SAM leaves out.
  let last = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    last = chunk.toString('utf8').slice(-1) || last;
  });
  child.stdout.once('end', () => {
    if (process.stdout.isTTY && last !== '' && last !== '\n') process.stdout.write('\n');
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    if (NOISE.some((pattern) => pattern.test(line))) return;
    process.stderr.write(`${line}\n`);
    onLine?.(line);
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)));
  });
  let stopping = false;
  return {
    exited,
    stop(graceMs = 10_000): void {
      if (stopping || child.exitCode !== null) return;
      stopping = true;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      void exited.finally(() => clearTimeout(timer));
    },
  };
}
