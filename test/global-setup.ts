// Runs once before all test files: the Python checkers at their pinned versions (installed on the
// first run when PATH lacks them), one self-signed TLS identity for the local JWKS servers, the synth
// server that synthesizes each stack context once for the run (test/helpers/synth-server.ts), and
// Node's compile cache for the run's child processes.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createTlsIdentity } from '../local/issuer/issuer.ts';
import { ensureCheckers, venvDir } from './checkers/provision.ts';
import { SYNTH_SERVER_ENV } from './helpers/cdk.ts';

/** The run's own temporary folder, removed by test/global-teardown.ts. */
export const RUN_DIR_ENV = 'PLANT_STORE_TEST_RUN_DIR';
/** The synth server's process id, which test/global-teardown.ts stops. */
export const SYNTH_SERVER_PID_ENV = 'PLANT_STORE_TEST_SYNTH_SERVER_PID';

export default async function globalSetup({ testTimeout }: { testTimeout: number }): Promise<void> {
  // Test files find moto_server and cfn-lint by name: PATH is what tells them which ones.
  process.env.PATH = await ensureCheckers(process.env.PATH ?? '', venvDir(process.env));
  const runDir = mkdtempSync(join(tmpdir(), 'plant-store-test-'));
  process.env[RUN_DIR_ENV] = runDir;
  const file = join(runDir, 'tls.json');
  writeFileSync(file, JSON.stringify(await createTlsIdentity()), { mode: 0o600 });
  process.env.PLANT_STORE_TEST_TLS = file;
  await startSynthServer(runDir, testTimeout);
  // The suite starts the CLIs, npm start and the bundle as child processes hundreds of times: with
  // Node's compile cache each compiles (and strips the types of) a file once a run, not once a start.
  process.env.NODE_COMPILE_CACHE = join(runDir, 'node-compile-cache');
}

async function startSynthServer(runDir: string, hangAfterMs: number): Promise<void> {
  const cache = join(runDir, 'synth');
  mkdirSync(cache);
  const portFile = join(runDir, 'synth-server.port');
  const server = spawn(
    process.execPath,
    [fileURLToPath(new URL('./helpers/synth-server.ts', import.meta.url)), cache, portFile],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_COMPILE_CACHE: join(runDir, 'node-compile-cache') },
    },
  );
  // Jest's own process must not wait for it: the teardown stops it.
  server.unref();
  // As long as its start takes (it loads aws-cdk-lib, seconds on a busy machine), up to the run's
  // hang-catcher, jest's testTimeout (jest.config.js): set-up has no timeout of its own.
  const started = performance.now();
  while (!existsSync(portFile)) {
    if (server.exitCode !== null || performance.now() - started > hangAfterMs) {
      // Jest runs no teardown after a failed set-up: nothing of this run may stay behind.
      server.kill('SIGKILL');
      rmSync(runDir, { recursive: true, force: true });
      throw new Error('the synth server did not start');
    }
    await sleep(50);
  }
  process.env[SYNTH_SERVER_ENV] = `http://127.0.0.1:${readFileSync(portFile, 'utf8')}`;
  process.env[SYNTH_SERVER_PID_ENV] = String(server.pid);
}
