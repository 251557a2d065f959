// The edge after a deploy. Outside us-east-1 it is two stacks (its web ACL's in us-east-1):
// `npm run check:deployed` finds the second through the first's template and runs drift detection on
// both, each in its Region (CloudFormation's answers replayed: test/helpers/cloudformation-drift.ts),
// and the deploy role may make what it reads there (the IAM evaluator decides). docs/edge.md's own
// post-deploy check, as written there: an unsigned GET of /plants to the function URL (here a server
// answering as Lambda does: AWS's is out of reach) prints the status, 403 when refused.

import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { afterAll, expect, it } from '@jest/globals';
import { stacksBeside } from '../../../deployed/drift.ts';
import { LIVE_ALIAS } from '../../../infra/delivery.ts';
import { EDGE_WAF_STACK } from '../../../infra/edge/waf.ts';
import { ENVIRONMENT_TAG } from '../../../infra/stack-environment.ts';
import { synthAccess } from '../../helpers/access-stack.ts';
import { synth } from '../../helpers/cdk.ts';
import {
  type ReplayedStack,
  replayDriftDetection,
  typesWithoutDriftReads,
} from '../../helpers/cloudformation-drift.ts';
import { ACCOUNT, decide, resolveIn, roleArn } from '../../helpers/iam.ts';
import { removeTempDirs, runNpm, tempDir } from '../../helpers/local-server.ts';

const REGION = 'eu-west-1';
const STACK = 'PlantStore-dev';
const WAF_STACK = `${STACK}${EDGE_WAF_STACK.suffix}`;
const edge = await synth({ env: 'dev', edge: 'true' }, { env: { account: '123456789012', region: REGION } });
const service = edge.template.toJSON() as ReplayedStack['template'];
const waf = edge.beside[EDGE_WAF_STACK.suffix]?.template;
const [alarm = '', alarmResource] = Object.entries(waf?.findResources('AWS::CloudWatch::Alarm') ?? {})[0] ?? [];
const threshold = alarmResource?.Properties.Threshold;
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

const replay = await replayDriftDetection({
  [STACK]: { region: REGION, template: service },
  [WAF_STACK]: {
    region: EDGE_WAF_STACK.region,
    template: waf?.toJSON() as ReplayedStack['template'],
    drifts: {
      [alarm]: {
        StackResourceDriftStatus: 'MODIFIED',
        PropertyDifferences: [
          {
            PropertyPath: '/Threshold',
            ExpectedValue: String(threshold),
            ActualValue: '1000000',
            DifferenceType: 'NOT_EQUAL',
          },
        ],
      },
    },
  },
});
afterAll(async () => {
  await replay.stop();
  removeTempDirs();
});

it("finds the web ACL's stack, in us-east-1, from the service stack's template", async () => {
  const client = new CloudFormationClient({ endpoint: replay.endpoint, region: REGION, credentials });

  const beside = await stacksBeside(client, STACK).finally(() => client.destroy());

  expect(beside).toEqual([{ stackName: WAF_STACK, region: EDGE_WAF_STACK.region }]);
});

it("runs drift detection on both stacks, the web ACL's in us-east-1, and fails naming a change there", async () => {
  const outputsFile = join(tempDir('outputs'), 'cdk-outputs.json');
  // As `cdk deploy --all` writes it: both stacks; the service's is the one with an API.
  const outputs = { ApiUrl: 'https://d111111abcdef8.cloudfront.net/', TableName: 'unused', Region: REGION };
  writeFileSync(outputsFile, JSON.stringify({ [STACK]: outputs, [WAF_STACK]: {} }));

  const run = await runNpm('check:deployed', ['--env', 'dev', '--outputs-file', outputsFile], {
    AWS_ENDPOINT_URL: replay.endpoint,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  });

  const detected = replay.calls.filter(({ action }) => action === 'DetectStackDrift');
  expect(detected.map(({ params, region }) => [params.get('StackName'), region]).sort()).toEqual(
    [
      [STACK, REGION],
      [WAF_STACK, EDGE_WAF_STACK.region],
    ].sort(),
  );
  expect(run.stdout).toContain(
    `  MODIFIED ${alarm} (AWS::CloudWatch::Alarm)\n    /Threshold: template ${threshold}, live 1000000\n`,
  );
  expect({ code: run.code, stderr: run.stderr.trim() }).toEqual({
    code: 1,
    stderr:
      '1 resource changed outside CloudFormation: deploy again to restore the template, or make the change in the code',
  });
});

it("reads every resource type of both stacks, or says it cannot (alarm mail's topic included)", async () => {
  const mailing = await synth(
    { env: 'dev', edge: 'true', alarmEmail: 'oncall@example.com' },
    { env: { account: '123456789012', region: REGION } },
  );
  for (const stack of [mailing.template, ...Object.values(mailing.beside).map(({ template }) => template)]) {
    expect(typesWithoutDriftReads(stack.toJSON() as ReplayedStack['template'])).toEqual([]);
  }
});

it("lets dev's deploy role detect drift on its web ACL's stack and read its alarm, not production's", async () => {
  const access = (await synthAccess({ githubRepository: 'octo-org/plant-store', githubRepositoryId: '2002' })).template;
  const identityPolicies = Object.entries(access.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith('DeployRoleDev'))
    .map(([, policy], index) => ({
      name: `policy${index}`,
      policy: resolveIn(access, policy.Properties.PolicyDocument),
    }));
  const may = async (action: string, resource: string, environment: string) =>
    (
      await decide({
        request: {
          principal: roleArn('DeployRole-dev'),
          action,
          resource: { resource, accountId: ACCOUNT },
          contextVariables: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environment },
        },
        identityPolicies,
      })
    ).decision;
  const region = EDGE_WAF_STACK.region;
  for (const [environment, stack] of [
    ['dev', WAF_STACK],
    ['production', `PlantStore${EDGE_WAF_STACK.suffix}`],
  ] as const) {
    const expected = environment === 'dev' ? 'Allowed' : 'ImplicitlyDenied';
    const stackArn = `arn:aws:cloudformation:${region}:${ACCOUNT}:stack/${stack}/0a1b2c3d`;
    expect(await may('cloudformation:DetectStackDrift', stackArn, environment)).toBe(expected);
    const alarmArn = `arn:aws:cloudwatch:${region}:${ACCOUNT}:alarm:${stack}-${alarm}-1A2B3C4D`;
    expect(await may('cloudwatch:DescribeAlarms', alarmArn, environment)).toBe(expected);
  }
});

const page = readFileSync(new URL('../../../docs/edge.md', import.meta.url), 'utf8');
const section = page.split(/^## /m).find((part) => part.startsWith('Check it')) ?? '';
const lines = (/```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '').trim().split('\n');

it('reads the URL of the live alias, then prints the status of an unsigned GET /plants to it', async () => {
  const seen: { method?: string; url?: string; headers: IncomingHttpHeaders }[] = [];
  const lambda = createServer((request, response) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers });
    response.writeHead(403, { 'content-type': 'application/json' }).end('{"Message":"Forbidden"}');
  });
  await new Promise<void>((listening) => lambda.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(lambda.address() as AddressInfo).port}/`;
  const [read, probe = ''] = lines;

  const { stdout } = await promisify(execFile)('bash', ['-c', probe], { env: { ...process.env, URL: url } }).finally(
    () => new Promise((closed) => lambda.close(closed)),
  );

  expect(read).toMatch(/^URL=\$\(aws lambda get-function-url-config /);
  expect(read).toContain(`--function-name "$(out FunctionName)" --qualifier ${LIVE_ALIAS} --query FunctionUrl`);
  expect(stdout).toBe('403\n');
  expect(seen).toEqual([
    { method: 'GET', url: '/plants', headers: expect.not.objectContaining({ authorization: expect.anything() }) },
  ]);
});
