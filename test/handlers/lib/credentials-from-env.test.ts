// The bundle's credential provider: the environment's credentials, as Lambda provides them; the
// SDK's full default chain only off Lambda, loaded from node_modules rather than shipped.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { defaultProvider } from '../../../handlers/lib/credentials-from-env.ts';
import { buildHandler } from '../../../scripts/build.ts';

const dir = mkdtempSync(`${tmpdir()}/credentials-`);
const saved = { ...process.env };
const CREDENTIAL_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CREDENTIAL_EXPIRATION',
  'AWS_PROFILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
];
afterEach(() => {
  for (const name of CREDENTIAL_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('credentials in the Lambda bundle', () => {
  it("returns the environment's credentials, as Lambda sets them for the function's role", async () => {
    // Prepare
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'session',
    });

    // Act
    const credentials = await defaultProvider()();

    // Assess
    expect(credentials).toEqual({ accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' });
  });

  it("falls back to the SDK's full chain (here a profile file) when the environment has none", async () => {
    // Prepare
    for (const name of CREDENTIAL_VARIABLES) delete process.env[name];
    writeFileSync(`${dir}/credentials`, '[default]\naws_access_key_id = AKIAPROFILE\naws_secret_access_key = s\n');
    writeFileSync(`${dir}/config`, '');
    Object.assign(process.env, { AWS_SHARED_CREDENTIALS_FILE: `${dir}/credentials`, AWS_CONFIG_FILE: `${dir}/config` });

    // Act
    const credentials = await defaultProvider()();

    // Assess
    expect(credentials.accessKeyId).toBe('AKIAPROFILE');
  });

  it('ships none of the default chain’s other sources (SSO, credential_process, web identity)', async () => {
    // Prepare
    const outdir = `${dir}/bundle`;

    // Act
    await buildHandler(outdir);

    // Assess
    const code = readdirSync(outdir)
      .filter((file) => file.endsWith('.mjs'))
      .map((file) => readFileSync(`${outdir}/${file}`, 'utf8'))
      .join('\n');
    expect(code).toContain('AWS_SECRET_ACCESS_KEY');
    for (const source of ['sso_start_url', 'credential_process', 'web_identity_token_file']) {
      expect(code).not.toContain(source);
    }
  });
});
