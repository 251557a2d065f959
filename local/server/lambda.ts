// The deployed bundle, built by the one build script and invoked the way Lambda invokes it.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { FUNCTION_MEMORY_MB, FUNCTION_TIMEOUT_SECONDS } from '../../infra/function-runtime.ts';
import { BUNDLE_FILE, buildHandler } from '../../scripts/build.ts';

export type Handler = (event: unknown, context: Context) => Promise<unknown>;

const FUNCTION_NAME = 'list-plants';

/** Builds the bundle into `outdir` and imports it: `process.env` must be complete, the handler reads it on load. */
export async function loadBundledHandler(outdir: string): Promise<Handler> {
  await buildHandler(outdir);
  // The query string makes a rebuilt bundle load afresh rather than from the module cache.
  const url = `${pathToFileURL(join(outdir, BUNDLE_FILE)).href}?build=${Date.now()}`;
  const module = (await import(url)) as { handler: Handler };
  return module.handler;
}

/**
 * One invocation at a time, as one Lambda execution environment runs them: a burst of requests waits
 * its turn instead of sharing the process (and the in-process store) while each one's deadline runs.
 */
export function oneAtATime<T, R>(invoke: (input: T) => Promise<R>): (input: T) => Promise<R> {
  let turn: Promise<unknown> = Promise.resolve();
  return (input) => {
    const result = turn.then(() => invoke(input));
    turn = result.catch(() => undefined);
    return result;
  };
}

/**
 * A Lambda context whose clock runs from now, so Middy's early-timeout guard behaves as deployed; a
 * test of the healthy path gives a longer timeout (up to Lambda's 900 s) than a machine can be slow.
 */
export function lambdaContext(awsRequestId: string = randomUUID(), timeoutSeconds = FUNCTION_TIMEOUT_SECONDS): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: FUNCTION_NAME,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${FUNCTION_NAME}`,
    memoryLimitInMB: String(FUNCTION_MEMORY_MB),
    awsRequestId,
    logGroupName: `/aws/lambda/${FUNCTION_NAME}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
