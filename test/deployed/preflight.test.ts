// The preflight against a stand-in for IAM's SimulatePrincipalPolicy (moto has none) that answers in the
// API's XML with the IAM evaluator's decisions over the shipped execution policy: every call of the
// synthesized app is asked about, for the bootstrap's execution role, and a missing grant is named with
// the statement that would allow it.

import { IAMClient } from '@aws-sdk/client-iam';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { checkStacks, describeDenial, stacksIn } from '../../deployed/preflight.ts';
import { callsOf } from '../../infra/deploy-access/calls.ts';
import { synth } from '../helpers/cdk.ts';
import { executionPolicy, executionRoleArn } from '../helpers/deploy-calls.ts';
import { ACCOUNT, type PolicyDocument, REGION } from '../helpers/iam.ts';
import { type IamEndpoint, startIamEndpoint } from '../helpers/iam-endpoint.ts';
import { runNpm } from '../helpers/local-server.ts';

const LOG_DELIVERY = 'LogDeliveryOnlyOnAllResources';
const shipped = executionPolicy('production');
const without = (sid: string): PolicyDocument => ({
  ...shipped,
  Statement: shipped.Statement.filter((statement: { Sid: string }) => statement.Sid !== sid),
});
let policy = shipped;
const synthesized = await synth();
let endpoint: IamEndpoint;
let iam: IAMClient;

beforeAll(async () => {
  endpoint = await startIamEndpoint(() => policy);
  iam = new IAMClient({
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});
afterAll(async () => {
  iam?.destroy();
  await endpoint?.close();
});

describe('the preflight', () => {
  const stacks = stacksIn(synthesized.outdir, ACCOUNT, 'aws', REGION);

  it("asks about every call of the stack, for the bootstrap's execution role, and finds none denied", async () => {
    policy = shipped;
    const before = endpoint.requests.length;
    const [checked] = await checkStacks(iam, stacks, ACCOUNT, 'aws');
    const template = synthesized.template.toJSON() as Parameters<typeof callsOf>[0];
    expect(checked?.calls).toBe(
      callsOf(template, { stackName: 'PlantStore', region: REGION, account: ACCOUNT, partition: 'aws' }).length,
    );
    expect(checked?.denials).toEqual([]);
    const asked = endpoint.requests.slice(before);
    expect(new Set(asked.map((request) => request.get('PolicySourceArn')))).toEqual(
      new Set([executionRoleArn('production', REGION)]),
    );
  });

  it('names a missing grant: the action, its resource, what it is for, and the statement to add', async () => {
    policy = without(LOG_DELIVERY);
    const [checked] = await checkStacks(iam, stacks, ACCOUNT, 'aws');
    const lines = (checked?.denials ?? []).map(describeDenial);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^PlantStore: logs:CreateLogDelivery on \* \(create of AWS::ApiGatewayV2::Stage \w+, infra\/deploy-access\/calls\/aws-apigatewayv2-stage\.json\): implicitDeny; add to the execution policy \{"Effect":"Allow","Action":"logs:CreateLogDelivery","Resource":"\*"\}$/,
      ),
    );
    expect(new Set(checked?.denials.map(({ call }) => call.action))).toEqual(
      new Set(shipped.Statement.find(({ Sid }: { Sid: string }) => Sid === LOG_DELIVERY).Action),
    );
  });
});

describe('npm run preflight', () => {
  const env = () => ({
    AWS_ENDPOINT_URL: endpoint.url,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: REGION,
  });

  it('exits 0 when the execution role may make every call', async () => {
    policy = shipped;
    const run = await runNpm('preflight', ['--assembly', synthesized.outdir], env());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^PlantStore: (\d+) of \1 calls allowed to arn:aws:iam::\d+:role\/cdk-psproducti-cfn-exec-role-/m,
    );
  });

  it('exits 1 before anything is created, naming each denied action', async () => {
    policy = without(LOG_DELIVERY);
    const run = await runNpm('preflight', ['--assembly', synthesized.outdir], env());
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^DENY PlantStore: logs:PutResourcePolicy on \* /m);
    expect(run.stderr).toMatch(
      /^\d+ calls the execution role may not make: add the statements above to infra\/deploy-access\/bootstrap\/execution-policy\.json/,
    );
  });
});
