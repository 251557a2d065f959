// `npm run check:deployed` as the deploy job runs it, against a stack "deployed" on moto's
// CloudFormation: the template read back from CloudFormation (GetTemplate, ListStackResources), each
// claim compared with the live resource, one line per finding, exit 1 on a difference.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { removeTempDirs, runNpm, tempDir } from '../helpers/local-server.ts';
import { type MotoServer, startMotoServer } from '../helpers/moto.ts';

const REGION = 'eu-west-1';
const STACK = 'PlantStore-dev';
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
// Two claims moto's CloudFormation can make live (it makes no alarms, stages, deployment groups or
// budgets: test/deployed/live-check.test.ts makes those itself): reserved concurrency, and a table's
// maximum throughput, which moto does not answer.
const trust = {
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};
const template = {
  Resources: {
    FunctionRole: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: trust } },
    Function: {
      Type: 'AWS::Lambda::Function',
      Properties: {
        Runtime: 'nodejs24.x',
        Handler: 'index.handler',
        Role: { 'Fn::GetAtt': ['FunctionRole', 'Arn'] },
        Code: { ZipFile: 'export const handler = async () => ({ statusCode: 200 });' },
        ReservedConcurrentExecutions: 25,
      },
    },
    PlantsTable: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'owner', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'owner', KeyType: 'HASH' }],
        OnDemandThroughput: { MaxReadRequestUnits: 2000, MaxWriteRequestUnits: 1000 },
      },
    },
  },
};
let moto: MotoServer;
const outputsFile = join(tempDir('outputs'), 'cdk-outputs.json');

beforeAll(async () => {
  moto = await startMotoServer();
  const cloudformation = new CloudFormationClient({ endpoint: moto.endpoint, region: REGION, credentials });
  await cloudformation.send(new CreateStackCommand({ StackName: STACK, TemplateBody: JSON.stringify(template) }));
  cloudformation.destroy();
  // What `cdk deploy -c env=dev` writes: where the stack is, not what it holds.
  const outputs = { ApiUrl: `https://a1b2c3d4e5.execute-api.${REGION}.amazonaws.com/`, TableName: 'unused' };
  writeFileSync(outputsFile, JSON.stringify({ [STACK]: outputs }));
});
afterAll(async () => {
  await moto?.stop();
  removeTempDirs();
});

describe('npm run check:deployed -- --env dev', () => {
  it('reads the deployed template from CloudFormation, prints a line per finding, and fails on a difference', async () => {
    const run = await runNpm('check:deployed', ['--env', 'dev', '--outputs-file', outputsFile], {
      AWS_ENDPOINT_URL: moto.endpoint,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    });

    expect(run.stdout.trim().split('\n')).toEqual([
      'ok   reserved concurrency of Function (AWS::Lambda::Function): template 25, live 25',
      // Moto's DescribeTable has no OnDemandThroughput: a real account's answer is the one that counts.
      'DIFF maximum on-demand throughput of PlantsTable (AWS::DynamoDB::Table): template {"read":2000,"write":1000}, live {}',
    ]);
    expect({ code: run.code, stderr: run.stderr.trim() }).toEqual({
      code: 1,
      stderr: `Stack ${STACK}: 1 of 2 checks differ from the template`,
    });
  });
});
