// moto's DynamoDB (Python, `moto_server`): a second, independent DynamoDB emulator.

import { type ChildProcess, spawn } from 'node:child_process';
import { connectDynamo, type LocalDynamo } from './dynamo.ts';
import { freePort } from './ports.ts';

export async function startMoto(tableName: string): Promise<LocalDynamo> {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(new Error(`moto_server could not start (${error.message}): see docs/testing.md`)),
    );
    child.once('exit', (code) => reject(new Error(`moto_server exited with code ${code}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  await Promise.race([waitUntilUp(endpoint), exited]);
  return connectDynamo(endpoint, tableName, () => stop(child));
}

async function waitUntilUp(endpoint: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(endpoint);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`moto_server did not answer at ${endpoint} within 10 s`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
