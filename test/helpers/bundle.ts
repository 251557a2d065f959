// The deployed bundle (scripts/build.ts) in a Node process of its own per configuration, invoked
// event after event as the Lambda runtime does: the environment is read once, at load.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { BUNDLE_FILE, buildHandler } from '../../scripts/build.ts';
import { tempDir } from './local-server.ts';

/** Builds the bundle that deploys into a temporary folder (removed by removeTempDirs()). */
export async function buildBundle(): Promise<string> {
  const outdir = tempDir('bundle');
  await buildHandler(outdir);
  return join(outdir, BUNDLE_FILE);
}

export interface BundledFunction {
  /** One invocation; `env`: what the runtime sets for this invocation alone (_X_AMZN_TRACE_ID). */
  invoke(event: unknown, env?: Record<string, string>): Promise<APIGatewayProxyResult>;
  /** The function's log lines (stdout) so far, parsed. */
  records(): Record<string, unknown>[];
  stop(): Promise<void>;
}

// One invocation per line on stdin (the event, and variables the runtime sets per invocation, such
// as _X_AMZN_TRACE_ID), one result per line on file descriptor 3: stdout carries the function's own
// log lines, as on Lambda.
const RUNNER = `
const { writeSync } = await import('node:fs');
const { createInterface } = await import('node:readline');
const { handler } = await import(process.argv[1]);
for await (const line of createInterface({ input: process.stdin })) {
  const { event, env } = JSON.parse(line);
  Object.assign(process.env, env);
  writeSync(3, JSON.stringify(await handler(event, {})) + '\\n');
}
`;

/** The bundle at `file` loaded with exactly `env` (nothing inherited, as on Lambda). */
export function startBundledFunction(file: string, env: Record<string, string>): BundledFunction {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER, pathToFileURL(file).href], {
    env,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const waiting: { resolve: (result: APIGatewayProxyResult) => void; reject: (error: Error) => void }[] = [];
  let buffered = '';
  child.stdio[3]?.on('data', (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      waiting.shift()?.resolve(JSON.parse(buffered.slice(0, end)));
      buffered = buffered.slice(end + 1);
    }
  });
  const exited = new Promise<void>((resolve) =>
    child.once('close', (code) => {
      for (const pending of waiting.splice(0)) pending.reject(new Error(`the bundle exited with ${code}: ${stderr}`));
      resolve();
    }),
  );
  return {
    invoke: (event, env = {}) =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin?.write(`${JSON.stringify({ event, env })}\n`);
      }),
    records: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line)),
    stop: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}
