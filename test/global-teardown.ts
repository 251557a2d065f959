// Runs once after all test files: removes the run's temporary folder (TLS identity, synthesized templates).

import { rmSync } from 'node:fs';
import { RUN_DIR_ENV } from './global-setup.ts';

export default function globalTeardown(): void {
  const dir = process.env[RUN_DIR_ENV];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
