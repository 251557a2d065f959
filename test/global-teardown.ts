// Runs once after all test files: stops the synth server and removes the run's temporary folder
// (TLS identity, synthesized templates).

import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { RUN_DIR_ENV, SYNTH_SERVER_PID_ENV } from './global-setup.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export default async function globalTeardown(): Promise<void> {
  // Killed, and waited for: a synth still writing into the run's folder would race its removal.
  const server = Number(process.env[SYNTH_SERVER_PID_ENV]);
  if (server && alive(server)) {
    process.kill(server, 'SIGKILL');
    for (let waited = 0; alive(server) && waited < 5000; waited += 20) await sleep(20);
  }
  const dir = process.env[RUN_DIR_ENV];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
