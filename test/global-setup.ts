// Runs once before all test files: the Python checkers at their pinned versions (installed on the
// first run when PATH lacks them), one self-signed TLS identity for the local JWKS servers, the
// folder where each stack context is synthesized once for the run (test/helpers/cdk.ts), and Node's
// compile cache for the run's child processes.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTlsIdentity } from '../local/issuer/issuer.ts';
import { ensureCheckers, venvDir } from './checkers/provision.ts';
import { makeSynthCache, SYNTH_CACHE_ENV } from './helpers/cdk.ts';

/** The run's own temporary folder, removed by test/global-teardown.ts. */
export const RUN_DIR_ENV = 'PLANT_STORE_TEST_RUN_DIR';

export default async function globalSetup(): Promise<void> {
  // Test files find moto_server and cfn-lint by name: PATH is what tells them which ones.
  process.env.PATH = await ensureCheckers(process.env.PATH ?? '', venvDir(process.env));
  const runDir = mkdtempSync(join(tmpdir(), 'plant-store-test-'));
  process.env[RUN_DIR_ENV] = runDir;
  const file = join(runDir, 'tls.json');
  writeFileSync(file, JSON.stringify(await createTlsIdentity()), { mode: 0o600 });
  process.env.PLANT_STORE_TEST_TLS = file;
  process.env[SYNTH_CACHE_ENV] = makeSynthCache(runDir);
  // The suite starts the CLIs, npm start and the bundle as child processes hundreds of times: with
  // Node's compile cache each compiles (and strips the types of) a file once a run, not once a start.
  process.env.NODE_COMPILE_CACHE = join(runDir, 'node-compile-cache');
}
