// `npm run sam`: what it says when the SAM CLI or Docker is missing (before it starts anything), and
// the files it hands SAM. SAM and Docker themselves are never run here (docs/sam-local.md says how
// the command was checked with the real SAM CLI).

import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { samEnvironment, writeSamFiles } from '../../local/sam/files.ts';
import type { SamServices } from '../../local/sam/services.ts';
import { readSamTemplate, type SamTemplate } from '../../local/sam/template.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';
import { removeTempDirs, tempDir } from '../helpers/local-server.ts';

const CLI = fileURLToPath(new URL('../../local/cli/sam.ts', import.meta.url));
afterAll(removeTempDirs);

/** A folder of stand-in executables, to be the whole PATH. */
function pathWith(tools: Record<string, string>): string {
  const dir = tempDir('path');
  for (const [name, script] of Object.entries(tools)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

async function runSamCli(path: string, args = ['invoke']) {
  const localDir = tempDir('local');
  try {
    await promisify(execFile)(process.execPath, [CLI, ...args], { env: { PATH: path, PLANTS_LOCAL_DIR: localDir } });
    return { code: 0, stderr: '', startedSomething: existsSync(join(localDir, 'sam')) };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr, startedSomething: existsSync(join(localDir, 'sam')) };
  }
}

describe('npm run sam without its tools', () => {
  it('names both when neither the SAM CLI nor Docker is installed, in one line, having started nothing', async () => {
    const run = await runSamCli(pathWith({}));
    expect(run).toMatchObject({ code: 1, startedSomething: false });
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^npm run sam needs the AWS SAM CLI \(https:\/\/\S+\) and Docker \(https:\/\/\S+\): install/,
      ),
    ]);
  });

  it('names only what is missing', async () => {
    const run = await runSamCli(pathWith({ sam: 'exit 0' }));
    expect(run.stderr.trim()).toMatch(/^npm run sam needs Docker \(https:\/\/\S+\): install, then run it again$/);
  });

  it("says that Docker's engine does not answer, in its own words", async () => {
    const stopped =
      'echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; exit 1';
    const run = await runSamCli(pathWith({ sam: 'exit 0', docker: stopped }));
    expect(run).toMatchObject({ code: 1, startedSomething: false });
    expect(run.stderr.trim()).toBe(
      'Docker is installed but its engine does not answer (Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?): start Docker, then run it again',
    );
  });
});

describe('npm run sam -- start-api --port', () => {
  it('refuses port 0 in a line, before looking for its tools: its links and curl must name the port', async () => {
    const run = await runSamCli(pathWith({}), ['start-api', '--port', '0']);
    expect(run).toMatchObject({ code: 2, startedSomething: false });
    expect(run.stderr.trim()).toBe('--port must be from 1 to 65535 for start-api, got "0"');
  });
});

describe('the files npm run sam hands SAM', () => {
  let synthesized: Synthesized;
  let template: SamTemplate;
  const services = {
    tableName: 'plants',
    dynamodbEndpoint: 'http://host.docker.internal:41001',
    issuer: {
      url: 'https://host.docker.internal:41002',
      jwksUri: 'https://host.docker.internal:41002/.well-known/jwks.json',
      cert: '-----BEGIN CERTIFICATE-----\n…\n',
    },
    tokens: [
      { user: 'alice', groups: ['greenhouse'], token: 'alice-token' },
      { user: 'bob', groups: ['greenhouse'], token: 'bob-token' },
    ],
  } as unknown as SamServices;

  beforeAll(async () => {
    synthesized = await synth({ samLocal: 'true', architecture: 'x86_64' });
    // What SAM reads: the template and the function's code folder (a build is not needed here).
    template = readSamTemplate(synthesized.outdir);
    template.assetDir = tempDir('asset');
  });

  it('sets only variables the template declares, pointing the function at the host and the Cognito path', () => {
    const env = samEnvironment(template, services);
    expect(Object.keys(env).filter((name) => !(name in template.variables))).toEqual([]);
    expect(env).toMatchObject({
      DYNAMODB_ENDPOINT: 'http://host.docker.internal:41001',
      AUTH_ISSUER: 'https://host.docker.internal:41002',
      AUTH_ISSUER_TYPE: 'cognito',
      NODE_EXTRA_CA_CERTS: '/var/task/issuer-cert.pem',
    });
    expect(template.architecture).toBe('x86_64');
    // invoke: nothing to call back, so next links stay relative; start-api: absolute to its origin.
    expect(env.PUBLIC_BASE_URL).toBeUndefined();
    expect(samEnvironment(template, services, 'http://127.0.0.1:3001').PUBLIC_BASE_URL).toBe('http://127.0.0.1:3001');
  });

  it('refuses a template synthesized without -c samLocal=true, which SAM would run unconfigured', async () => {
    const plain = await synth();
    expect(() => samEnvironment(readSamTemplate(plain.outdir), services)).toThrow(
      /does not declare DYNAMODB_ENDPOINT, DYNAMODB_DEADLINE_MS, AUTH_ISSUER_TYPE, AUTH_JWKS_URI, AUTH_JWKS_TIMEOUT_MS, NODE_EXTRA_CA_CERTS: it must be synthesized with -c samLocal=true/,
    );
  });

  it('puts the certificate where the container sees it, and events as alice asking for all her plants', () => {
    const files = writeSamFiles(tempDir('sam'), template, services);
    expect(readFileSync(join(template.assetDir, 'issuer-cert.pem'), 'utf8')).toBe(services.issuer.cert);
    const http = JSON.parse(readFileSync(files.events.http, 'utf8'));
    expect(http).toMatchObject({ headers: { authorization: 'Bearer alice-token' }, rawQueryString: '' });
    expect(http.queryStringParameters).toBeUndefined();
    const rest = JSON.parse(readFileSync(files.events.rest, 'utf8'));
    expect(rest).toMatchObject({
      headers: { Authorization: 'Bearer alice-token' },
      multiValueHeaders: { Authorization: ['Bearer alice-token'] },
      queryStringParameters: null,
    });
    expect(readFileSync(files.tokenFiles.bob ?? '', 'utf8').trim()).toBe('bob-token');
  });
});
