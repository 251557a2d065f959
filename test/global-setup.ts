// Runs once before all test files: the Python checkers at their pinned versions (installed on the
// first run when PATH lacks them), and one self-signed TLS identity for the local JWKS servers.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTlsIdentity } from '../local/issuer/issuer.ts';
import { ensureCheckers, venvDir } from './checkers/provision.ts';

export default async function globalSetup(): Promise<void> {
  // Test files find moto_server and cfn-lint by name: PATH is what tells them which ones.
  process.env.PATH = await ensureCheckers(process.env.PATH ?? '', venvDir(process.env));
  const file = join(mkdtempSync(join(tmpdir(), 'plant-store-test-')), 'tls.json');
  writeFileSync(file, JSON.stringify(await createTlsIdentity()), { mode: 0o600 });
  process.env.PLANT_STORE_TEST_TLS = file;
}
