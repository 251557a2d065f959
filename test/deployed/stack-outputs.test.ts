// --env after another environment's deploy: `cdk deploy` rewrote the outputs file with production's
// stack only, and dev's outputs come from CloudFormation itself (moto's, standing in for AWS).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stackOutputs } from '../../deployed/stack-outputs.ts';
import { removeTempDirs, tempDir } from '../helpers/local-server.ts';
import { type MotoServer, startMotoServer } from '../helpers/moto.ts';

const REGION = 'eu-west-1';
const outputsOf = (id: string) => ({
  ApiUrl: `https://${id}.execute-api.${REGION}.amazonaws.com/`,
  TableName: `table-${id}`,
  UserPoolId: `${REGION}_${id}`,
  AppClientId: `client-${id}`,
});
let moto: MotoServer;
const cloudformation = () =>
  new CloudFormationClient({
    endpoint: moto.endpoint,
    region: REGION,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
const file = join(tempDir('outputs'), 'cdk-outputs.json');

beforeAll(async () => {
  moto = await startMotoServer();
  // What `cdk deploy -c env=production` leaves: production's stack only.
  writeFileSync(file, JSON.stringify({ PlantStore: outputsOf('prod') }));
  // Dev's stack, deployed earlier: its outputs are in CloudFormation.
  const client = cloudformation();
  const template = {
    Resources: { Handle: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
    Outputs: Object.fromEntries(Object.entries(outputsOf('dev')).map(([key, value]) => [key, { Value: value }])),
  };
  await client.send(new CreateStackCommand({ StackName: 'PlantStore-dev', TemplateBody: JSON.stringify(template) }));
  client.destroy();
});
afterAll(async () => {
  await moto?.stop();
  removeTempDirs();
});

describe('a stack’s outputs for --env', () => {
  it("reads dev's from CloudFormation when the file holds production's only", async () => {
    const outputs = await stackOutputs(file, 'dev', cloudformation);
    expect(outputs).toMatchObject({ stackName: 'PlantStore-dev', tableName: 'table-dev', region: REGION });
    expect(outputs.apiUrl).toBe(outputsOf('dev').ApiUrl);
  });

  it("reads dev's from CloudFormation on a machine that never deployed (no outputs file at all)", async () => {
    const none = join(tempDir('none'), 'cdk-outputs.json');
    const outputs = await stackOutputs(none, 'dev', cloudformation);
    expect(outputs).toMatchObject({ stackName: 'PlantStore-dev', tableName: 'table-dev' });
  });

  it("reads production's from the file, without asking CloudFormation", async () => {
    const unused = () => {
      throw new Error('CloudFormation asked');
    };
    await expect(stackOutputs(file, 'production', unused)).resolves.toMatchObject({ tableName: 'table-prod' });
  });

  it('says what to deploy when neither has the environment', async () => {
    await expect(stackOutputs(file, 'staging', cloudformation)).rejects.toThrow(
      /has no outputs of stack PlantStore-staging \(--env staging\).*"npx cdk deploy -c env=staging" writes them there/,
    );
  });
});
