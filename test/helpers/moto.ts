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

async function waitUntilUp(endpoint: string, child: ChildProcess): Promise<void> {
  // Gives up as soon as the process is gone, so no polling outlives a failed start.
  for (let attempt = 0; attempt < 100 && isRunning(child); attempt++) {
    try {
      await fetch(endpoint);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`moto_server did not answer at ${endpoint} within 10 s`);
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
