// Runs once after all test files: stops the synth server and removes the run's temporary folder
// (TLS identity, synthesized templates).

import { rmSync } from 'node:fs';
import { RUN_DIR_ENV, SYNTH_SERVER_PID_ENV } from './global-setup.ts';

export default function globalTeardown(): void {
  const server = Number(process.env[SYNTH_SERVER_PID_ENV]);
  if (server) {
    try {
      process.kill(server);
    } catch {
      // Gone already.
    }
  }
  const dir = process.env[RUN_DIR_ENV];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
