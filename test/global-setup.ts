// Runs once before all test files: one self-signed TLS identity for the local JWKS servers.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTlsIdentity } from '../local/issuer.ts';

export default async function globalSetup(): Promise<void> {
  const file = join(mkdtempSync(join(tmpdir(), 'plant-store-test-')), 'tls.json');
  writeFileSync(file, JSON.stringify(await createTlsIdentity()), { mode: 0o600 });
  process.env.PLANT_STORE_TEST_TLS = file;
}
