// The deployed path after `npx cdk deploy`: `npm run token -- <user> --deployed` and `npm run plants
// -- ... --deployed` run as a user runs them, against moto's Cognito and DynamoDB standing in for
// the stack (its synthesized pool and app client settings), reached through the AWS SDK's own
// AWS_ENDPOINT_URL: the CLIs have no endpoint setting of their own.

import { createPublicKey, type JsonWebKey, randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { passwordFileOf } from '../../deployed/passwords.ts';
import { SMOKE_USERNAME, smokeSecretName } from '../../infra/deploy-access/bootstrap/policies.ts';
import { SMOKE_SECRET_ACTIONS } from '../../infra/deploy-access/grants.ts';
import { createApp } from '../../local/server/app.ts';
import { deployOnMoto, MOTO_REGION, type MotoDeployment, synthesizedIdentity } from '../helpers/deployed-on-moto.ts';
import { connectDynamo } from '../helpers/dynamo.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { removeTempDirs, runNpm, tempDir } from '../helpers/local-server.ts';
import { type MotoServer, startMotoServer } from '../helpers/moto.ts';
import { type Service, startService } from '../helpers/service.ts';

const localDir = tempDir('local');
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
// The stack's pool and app client, synthesized outside the hook's timeout (it is CPU-bound).
const identity = await synthesizedIdentity();
let moto: MotoServer;
let deployment: MotoDeployment;

beforeAll(async () => {
  // What moto records (the smoke check's calls) is written there, not into the project.
  moto = await startMotoServer({ recordTo: join(tempDir('moto'), 'recording') });
  deployment = await deployOnMoto(moto.endpoint, tempDir('deploy'), identity);
});
afterAll(async () => {
  deployment?.close();
  await moto?.stop();
  removeTempDirs();
});

const env = () => ({ ...deployment.env, PLANTS_LOCAL_DIR: localDir });
const deployed = () => ['--deployed', '--outputs-file', deployment.outputsFile];
const token = (...args: string[]) => runNpm('token', [...args, ...deployed()], env());
const plants = (...args: string[]) => runNpm('plants', [...args, ...deployed()], env());
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
const subOf = async (username: string) => {
  const { UserAttributes } = await deployment.cognito.send(
    new AdminGetUserCommand({ UserPoolId: deployment.userPoolId, Username: username }),
  );
  return UserAttributes?.find(({ Name }) => Name === 'sub')?.Value;
};

describe('npm run token -- <user> --deployed', () => {
  it("signs in through a flow the stack's app client allows", () => {
    expect(deployment.explicitAuthFlows).toContain('ALLOW_USER_PASSWORD_AUTH');
  });

  it('creates an absent user with a generated password kept under .local, never printed, and prints a token', async () => {
    const run = await token('alice');

    expect(run.code).toBe(0);
    const printed = run.stdout.trim();
    expect(printed.split('\n')).toHaveLength(1);
    const sub = await subOf('alice@example.com');
    expect(claimsOf(printed)).toMatchObject({ sub, client_id: deployment.appClientId, token_use: 'access' });
    expect(run.stderr).toContain(`Access token for alice@example.com (sub ${sub}, new user, password kept in`);
    expect(run.stderr).toContain('Call: curl -i -H "Authorization: Bearer $TOKEN" https://abc123defg.execute-api');

    const file = passwordFileOf(localDir, deployment.userPoolId, 'alice@example.com');
    const password = readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(run.stdout + run.stderr).not.toContain(password);
  });

  it('behind a front of an option, prints a call to it, which the stack outputs as ApiUrl', async () => {
    const outputs = JSON.parse(readFileSync(deployment.outputsFile, 'utf8'));
    for (const stack of Object.values(outputs) as Record<string, string>[]) {
      stack.ApiUrl = 'https://d111111abcdef8.cdn.example.net/';
    }
    const outputsFile = join(tempDir('front-outputs'), 'cdk-outputs.json');
    writeFileSync(outputsFile, JSON.stringify(outputs));

    const run = await runNpm('token', ['alice', '--deployed', '--outputs-file', outputsFile], env());

    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Call: curl -i -H "Authorization: Bearer $TOKEN" https://d111111abcdef8.cdn.example.net/plants',
    );
    expect(run.stderr).not.toContain('execute-api');
  });

  it('reuses a user it created, with the kept password', async () => {
    const file = passwordFileOf(localDir, deployment.userPoolId, 'alice@example.com');
    const before = readFileSync(file, 'utf8');

    const run = await token('alice');

    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('new user');
    expect(readFileSync(file, 'utf8')).toBe(before);
    const { Users } = await deployment.cognito.send(new ListUsersCommand({ UserPoolId: deployment.userPoolId }));
    expect(Users?.filter((user) => user.Attributes?.some(({ Value }) => Value === 'alice@example.com'))).toHaveLength(
      1,
    );
  });

  it('adds groups, creating them, and keeps the ones the user is in: the token names them all', async () => {
    const first = await token('carol', '--groups', 'greenhouse');
    expect(claimsOf(first.stdout.trim())['cognito:groups']).toEqual(['greenhouse']);

    const second = await token('carol', '--groups', 'orchard');

    expect(second.code).toBe(0);
    // Cognito names groups in no particular order.
    expect([...claimsOf(second.stdout.trim())['cognito:groups']].sort()).toEqual(['greenhouse', 'orchard']);
    expect(second.stderr).toMatch(/cognito:groups (greenhouse,orchard|orchard,greenhouse)/);
  });

  it('leaves a user made elsewhere alone unless told to give it a new password', async () => {
    await deployment.cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: deployment.userPoolId,
        Username: 'dave@example.com',
        MessageAction: 'SUPPRESS',
      }),
    );

    const refused = await token('dave@example.com');
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      /^dave@example\.com already exists in user pool \S+ and its password is not in .+: pass --reset-password/,
    );

    const reset = await token('dave@example.com', '--reset-password');
    expect(reset.code).toBe(0);
    expect(claimsOf(reset.stdout.trim()).sub).toBe(await subOf('dave@example.com'));
  });

  it('refuses the local-only flags, saying why', async () => {
    const run = await token('alice', '--ttl', '5m');
    expect(run.code).toBe(2);
    // One line: the reason, not the local token's usage after it.
    expect(run.stderr.trim().split('\n')).toEqual([
      '--ttl is for local tokens: the app client sets the lifetime (-c accessTokenMinutes at deploy)',
    ]);
  });

  it('says in one line that AWS cannot be reached, as it says that credentials are missing', async () => {
    // A name that never resolves (RFC 2606's .invalid): what DNS answers without a network.
    const run = await runNpm('token', ['alice', ...deployed()], {
      ...env(),
      AWS_ENDPOINT_URL: 'http://cognito.invalid',
    });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Cannot reach AWS for stack \S+ in \S+ \(from .+\) \((ENOTFOUND|EAI_AGAIN) cognito\.invalid\): check your network connection, proxy or VPN$/,
      ),
    ]);
  });

  it('says in one line that the --outputs-file given does not exist, without telling the user to pass it', async () => {
    const missing = join(tempDir('empty'), 'cdk-outputs.json');
    const run = await runNpm('token', ['alice', '--deployed', '--outputs-file', missing], env());
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr.trim().split('\n')).toEqual([
      `No deployment outputs in ${missing} (--outputs-file): check the path, or leave the option out to read the file "npx cdk deploy" writes (cdk.json's outputsFile)`,
    ]);
  });
});

describe('--env NAME: one outputs file, several environments', () => {
  // What `npx cdk deploy -c env=dev` then `npx cdk deploy --outputs-file <same file>` would leave.
  const twoStacks = () => {
    const file = join(tempDir('two-stacks'), 'cdk-outputs.json');
    const [only] = Object.values(JSON.parse(readFileSync(deployment.outputsFile, 'utf8')));
    const production = { ...(only as object), TableName: 'plants-production-elsewhere' };
    writeFileSync(file, JSON.stringify({ PlantStore: production, 'PlantStore-dev': only }));
    return file;
  };

  it('refuses to guess between stacks, naming them and the flag that picks one', async () => {
    const file = twoStacks();
    const run = await runNpm('token', ['alice', '--deployed', '--outputs-file', file], env());
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr.trim().split('\n')).toEqual([
      `${file} holds the outputs of PlantStore, PlantStore-dev: say which with --env NAME`,
    ]);
  });

  it("uses the named environment's stack, and says which when that environment has no outputs there", async () => {
    const file = twoStacks();
    const dev = await runNpm('token', ['alice', '--deployed', '--env', 'dev', '--outputs-file', file], env());
    expect(dev.code).toBe(0);
    expect(dev.stderr).toContain('of stack PlantStore-dev');

    const staging = await runNpm('token', ['alice', '--deployed', '--env', 'staging', '--outputs-file', file], env());
    expect(staging).toMatchObject({ code: 1, stdout: '' });
    expect(staging.stderr.trim().split('\n')).toEqual([
      `${file} has no outputs of stack PlantStore-staging (--env staging), only of PlantStore, PlantStore-dev: "npx cdk deploy -c env=staging" writes them there`,
    ]);
  });

  it('goes with --deployed only, in each command that takes it', async () => {
    for (const [command, args] of [
      ['plants', ['list', '--env', 'dev']],
      ['token', ['alice', '--env', 'dev']],
      ['smoke', ['--env', 'dev']],
    ] as const) {
      const run = await runNpm(command, [...args], env());
      expect({ command, code: run.code }).toEqual({ command, code: 2 });
      expect(run.stderr).toContain('--env goes with --deployed');
    }
  });

  it("refuses the smoke check's secret flags where they cannot apply, saying why", async () => {
    const refusals = [
      [['--password-secret', 'S'], '--password-secret goes with --deployed'],
      [['--deployed', '--set-password'], '--set-password goes with --password-secret'],
      [
        ['--deployed', '--password-secret', 'S', '--reset-password'],
        "--reset-password is for --user: a secret's user gets its password with --set-password",
      ],
      [
        ['--deployed', '--password-secret', 'S', '--user', 'bob'],
        '--user and --password-secret both name whose token: the secret holds its user',
      ],
    ] as const;
    for (const [args, message] of refusals) {
      const run = await runNpm('smoke', [...args], env());
      expect({ args, code: run.code, stderr: run.stderr.trim() }).toEqual({ args, code: 2, stderr: message });
    }
    const absent = await runNpm(
      'smoke',
      ['--deployed', '--password-secret', 'PlantStoreSmoke-nope', ...deployed().slice(1)],
      env(),
    );
    expect({ code: absent.code, stderr: absent.stderr.trim() }).toEqual({
      code: 1,
      stderr: `No secret PlantStoreSmoke-nope in ${MOTO_REGION}: the access stack makes one per environment, PlantStoreSmoke-<env> (docs/pipeline.md)`,
    });
  });
});

describe('npm run plants -- ... --deployed', () => {
  it("writes a user's plant under their sub, looked up in the pool", async () => {
    await token('erin');
    const sub = await subOf('erin@example.com');

    const added = await plants('add', 'erin', 'Fern');

    expect(added.code).toBe(0);
    expect(added.stderr).toContain(`erin@example.com: sub ${sub}`);
    const listed = await plants('list', 'erin', '--json');
    expect(JSON.parse(listed.stdout)).toMatchObject([{ owner: sub, name: 'Fern' }]);
  });

  it('imports a file naming users and groups', async () => {
    const csv = join(tempDir('files'), 'plants.csv');
    writeFileSync(csv, 'owner,group,name\nerin,,Ivy\nerin@example.com,,Moss\n,greenhouse,Tomato\n');

    expect(await plants('import', csv)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Imported 3 plant(s)'),
    });

    const names = async (...whose: string[]) =>
      (JSON.parse((await plants('list', ...whose, '--json')).stdout) as { name: string }[])
        .map(({ name }) => name)
        .sort();
    expect(await names('erin')).toEqual(['Fern', 'Ivy', 'Moss']);
    expect(await names('--group', 'greenhouse')).toEqual(['Tomato']);
  });

  it('names the command that creates a user the pool does not have', async () => {
    const run = await plants('add', 'zed', 'Cactus');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `No user zed@example.com in user pool ${deployment.userPoolId}: "npm run token -- zed --deployed" creates it`,
    );
  });
});

describe('the deployed path end to end', () => {
  let service: Service;
  afterAll(() => service?.stop());

  it('a token from the pool and plants added by username reach the function as the stack configures it', async () => {
    await token('frank', '--groups', 'conservatory');
    await plants('add', 'frank', 'Olive tree');
    await plants('add', '--group', 'conservatory', 'Lemon tree');
    const jwt = (await token('frank')).stdout.trim();
    const issuer = claimsOf(jwt).iss as string;
    // The pool's keys, served as the function would fetch them (moto serves its JWKS over http only).
    const jwks = (await (await fetch(`${moto.endpoint}/${deployment.userPoolId}/.well-known/jwks.json`)).json()) as {
      keys: (JsonWebKey & { kid: string })[];
    };
    const poolKeys = jwks.keys.map((jwk) => {
      const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
      return { kid: jwk.kid, publicKey, privateKey: publicKey };
    });
    service = await startService(
      { AUTH_ISSUER: issuer, AUTH_AUDIENCE: deployment.appClientId, PLANTS_TABLE_NAME: deployment.tableName },
      (table) => connectDynamo(moto.endpoint, table, async () => {}),
      { moreKeys: poolKeys },
    );

    const reply = await service.call(httpApiEvent({ headers: { authorization: `Bearer ${jwt}` } }));

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([{ name: 'Olive tree' }, { name: 'Lemon tree' }]);
  });

  it('npm run smoke -- --deployed walks the stack where its links lead (ApiUrl, custom domain, proxy or an option’s front) with a token of its pool, and checks the refusals', async () => {
    // The function behind an HTTP front as API Gateway would put it, at the outputs file's ApiUrl.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const origin = `http://127.0.0.1:${port}`;
    server.on(
      'request',
      createApp({
        handler: service.handler,
        port,
        origins: [origin],
        authorizeHelp: '',
        jwks: undefined,
        log: () => {},
      }),
    );
    const outputs = JSON.parse(readFileSync(deployment.outputsFile, 'utf8'));
    const outputsFile = join(tempDir('outputs'), 'cdk-outputs.json');
    /** smoke --deployed on the outputs file with these outputs changed: passes at the HTTP front. */
    const smokePasses = async (changed: Record<string, string>) => {
      for (const stack of Object.values(outputs) as Record<string, string>[]) Object.assign(stack, changed);
      writeFileSync(outputsFile, JSON.stringify(outputs));
      const run = await runNpm('smoke', ['--deployed', '--outputs-file', outputsFile, '--user', 'frank'], env());
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      expect(run.stdout).toContain(`Smoke check of ${origin}/plants: passed`);
      return run.stdout;
    };
    try {
      expect(await smokePasses({ ApiUrl: `${origin}/` })).toContain('2 plant(s)');
      // A stack with a custom domain: walked there, where its links lead, not at ApiUrl.
      await smokePasses({
        CustomDomainUrl: `${origin}/`,
        ApiUrl: 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/',
      });
      // Behind a proxy (-c publicBaseUrl), links lead there even when the stack has a custom domain.
      await smokePasses({ PublicBaseUrl: `${origin}/`, CustomDomainUrl: 'https://plants.example.com/' });
      // Behind an option's front with a stack beside the service's: walked at ApiUrl, and the outputs of
      // the stack beside, which `cdk deploy --all` writes to the same file, are passed over.
      for (const stack of Object.values(outputs) as Record<string, string>[]) {
        delete stack.PublicBaseUrl;
        delete stack.CustomDomainUrl;
        stack.ApiUrl = `${origin}/`;
      }
      outputs.PlantStoreBeside = {
        PublishOutputFnGetAttBesideResourceArn: 'arn:aws:service:us-east-1:123456789012:resource/x',
      };
      await smokePasses({});

      // As the pipeline runs it: a fresh runner (nothing kept), the environment named, the stack
      // beside still passed over, the smoke user's password read from its secret.
      const runnerDir = tempDir('runner');
      const password = `${randomBytes(24).toString('base64url')}aA7!`;
      const secret = smokeSecretName('production');
      const secrets = new SecretsManagerClient({ endpoint: moto.endpoint, region: MOTO_REGION, credentials });
      await secrets.send(
        new CreateSecretCommand({ Name: secret, SecretString: JSON.stringify({ username: SMOKE_USERNAME, password }) }),
      );
      secrets.destroy();
      const pipelineSmoke = (...more: string[]) =>
        runNpm(
          'smoke',
          ['--deployed', '--env', 'production', '--password-secret', secret, ...more, '--outputs-file', outputsFile],
          {
            ...env(),
            PLANTS_LOCAL_DIR: runnerDir,
          },
        );

      // Before an administrator has given the pool's user the secret's password: refused, saying how.
      const early = await pipelineSmoke();
      expect({ code: early.code, lines: early.stderr.trim().split('\n') }).toEqual({
        code: 1,
        lines: [
          `${SMOKE_USERNAME} does not sign in to user pool ${deployment.userPoolId} with the password in secret ${secret}: an administrator gives it that password once, npm run smoke -- --deployed --env production --password-secret ${secret} --set-password`,
        ],
      });
      // The administrator's one run, with the set-up's credentials.
      expect((await pipelineSmoke('--set-password')).code).toBe(0);

      // The pipeline's run: passes, prints neither password nor token, and asks AWS for nothing but
      // the secret and the app client's sign-in (moto records what the command sent).
      await fetch(`${moto.endpoint}/moto-api/recorder/start-recording`, { method: 'POST' });
      const ci = await pipelineSmoke();
      await fetch(`${moto.endpoint}/moto-api/recorder/stop-recording`, { method: 'POST' });
      expect(ci.code).toBe(0);
      expect(ci.stdout).toContain('passed');
      expect(ci.stdout + ci.stderr).not.toContain(password);
      expect(ci.stdout + ci.stderr).not.toMatch(/eyJ[\w-]+\.eyJ/);
      const recording = await (await fetch(`${moto.endpoint}/moto-api/recorder/download-recording`)).text();
      const calls = recording
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).headers['X-Amz-Target'] as string)
        // The function behind the front reads the plants table; the command's own calls are the rest.
        .filter((target) => !target.startsWith('DynamoDB_'));
      expect([...new Set(calls)].sort()).toEqual([
        'AWSCognitoIdentityProviderService.InitiateAuth',
        `secretsmanager.${SMOKE_SECRET_ACTIONS[0]?.split(':')[1]}`,
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
