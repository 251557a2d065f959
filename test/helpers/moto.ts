// moto (Python, `moto_server`): a second, independent DynamoDB emulator, and a Cognito one.

import { type ChildProcess, spawn } from 'node:child_process';
import { connectDynamo, type LocalDynamo } from './dynamo.ts';
import { freePort } from './ports.ts';
import { orUndo } from './undo.ts';

export async function startMoto(tableName: string): Promise<LocalDynamo> {
  const moto = await startMotoServer();
  return connectDynamo(moto.endpoint, tableName, moto.stop);
}

export interface MotoServer {
  /** One endpoint for every service moto emulates (DynamoDB, Cognito user pools, …). */
  endpoint: string;
  stop(): Promise<void>;
}

/** `recordTo`: the file moto's recorder (/moto-api/recorder/…) writes, else `moto_recording` where it runs. */
export async function startMotoServer({ recordTo }: { recordTo?: string } = {}): Promise<MotoServer> {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(recordTo && { env: { ...process.env, MOTO_RECORDER_FILEPATH: recordTo } }),
  });
  // The end of what moto_server printed, for the error when it exits at start.
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-1000)));
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(new Error(`moto_server could not start (${error.message}): see docs/testing.md, Python checkers`)),
    );
    child.once('exit', (code) => reject(new Error(`moto_server exited with code ${code}: ${stderr.trim()}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  await orUndo(Promise.race([waitUntilUp(endpoint, child), exited]), () => stop(child));
  return { endpoint, stop: () => stop(child) };
}

/**
 * Polls until moto answers, for as long as its process runs: moto is Python and takes seconds to
 * start, many more on a busy machine, so no clock decides here. One that exits ends the wait (its
 * error comes from `exited`); one that neither answers nor exits is the test's timeout to catch.
 */
async function waitUntilUp(endpoint: string, child: ChildProcess): Promise<void> {
  while (isRunning(child)) {
    try {
      await fetch(endpoint);
      return;
    } catch {
      // Unref'd: a wait the test's timeout abandoned must not hold the test run open.
      await new Promise((resolve) => setTimeout(resolve, 100).unref());
    }
  }
}

// A failed spawn sets exitCode too (to the negated errno), so this also covers "never started".
const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

function stop(child: ChildProcess): Promise<void> {
  if (!isRunning(child)) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
