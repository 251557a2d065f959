// `npm run check:deployed` as the deploy job runs it, CloudFormation's drift detection replayed (moto
// has none: test/helpers/cloudformation-drift.ts) on the synthesized stack: a line per stack, each
// drifted resource and property, each resource not checked; exit 1 on drift.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { synth } from '../helpers/cdk.ts';
import { NOT_DRIFT_CHECKED, type ReplayedStack, replayDriftDetection } from '../helpers/cloudformation-drift.ts';
import { removeTempDirs, runNpm, tempDir } from '../helpers/local-server.ts';

const REGION = 'eu-west-1';
const STACK = 'PlantStore-dev';
const { template } = await synth({ env: 'dev', alarmEmail: 'oncall@example.com' });
const resources = template.toJSON().Resources as ReplayedStack['template']['Resources'];
const [stage = '', stageResource] = Object.entries(template.findResources('AWS::ApiGatewayV2::Stage'))[0] ?? [];
const burst = stageResource?.Properties.DefaultRouteSettings.ThrottlingBurstLimit;
const unchecked = Object.entries(resources).filter(([, { Type }]) => NOT_DRIFT_CHECKED.includes(Type));
const notChecked = unchecked.filter(([, { Type }]) => Type !== 'AWS::CDK::Metadata');
const outputsFile = join(tempDir('outputs'), 'cdk-outputs.json');
const credentials = { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' };

beforeAll(() => {
  // What `cdk deploy -c env=dev` writes: where the stack is, not what it holds.
  const outputs = { ApiUrl: `https://a1b2c3d4e5.execute-api.${REGION}.amazonaws.com/`, TableName: 'unused' };
  writeFileSync(outputsFile, JSON.stringify({ [STACK]: { ...outputs, Region: REGION } }));
});
afterAll(() => removeTempDirs());

async function checkDeployed(stack: Partial<ReplayedStack>) {
  const replay = await replayDriftDetection({
    [STACK]: { region: REGION, template: { Resources: resources }, ...stack },
  });
  try {
    const run = await runNpm('check:deployed', ['--env', 'dev', '--outputs-file', outputsFile], {
      AWS_ENDPOINT_URL: replay.endpoint,
      ...credentials,
    });
    return { ...run, stdout: run.stdout.trim().split('\n'), stderr: run.stderr.trim() };
  } finally {
    await replay.stop();
  }
}

const summary = (drifted: number) =>
  `${STACK} (${REGION}): ${Object.keys(resources).length - unchecked.length - drifted} in sync, ${drifted} drifted, ${notChecked.length} not checked`;
const notCheckedLines = notChecked.map(
  ([id, { Type }]) => `  not checked ${id} (${Type}): drift detection does not support the type`,
);

describe('npm run check:deployed -- --env dev', () => {
  it('fails on a resource changed outside CloudFormation, naming it and each property, template and live values', async () => {
    const run = await checkDeployed({
      drifts: {
        [stage]: {
          StackResourceDriftStatus: 'MODIFIED',
          PropertyDifferences: [
            {
              PropertyPath: '/DefaultRouteSettings/ThrottlingBurstLimit',
              ExpectedValue: String(burst),
              ActualValue: '5000',
              DifferenceType: 'NOT_EQUAL',
            },
          ],
        },
      },
    });

    expect(run.stdout).toEqual([
      summary(1),
      `  MODIFIED ${stage} (AWS::ApiGatewayV2::Stage)`,
      `    /DefaultRouteSettings/ThrottlingBurstLimit: template ${burst}, live 5000`,
      ...notCheckedLines,
    ]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr:
        '1 resource changed outside CloudFormation: deploy again to restore the template, or make the change in the code',
    });
  });

  it("passes when every resource it checks matches, and says which it does not check (the role's inline policy among them)", async () => {
    const run = await checkDeployed({});

    expect(notCheckedLines.join('\n')).toContain('(AWS::IAM::Policy)');
    expect(run).toEqual({
      code: 0,
      stdout: [summary(0), ...notCheckedLines, `No drift: ${STACK} match their templates`],
      stderr: '',
    });
  });

  it('fails when the detection fails, with its reason', async () => {
    const reason = 'Failed to detect drift on resource: not authorized to perform dynamodb:DescribeTable';
    const run = await checkDeployed({
      detections: [{ DetectionStatus: 'DETECTION_FAILED', DetectionStatusReason: reason }],
    });

    expect(run.stdout.at(-1)).toBe(`  detection failed: ${reason}`);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: `Drift detection failed on ${STACK}: see above`,
    });
  });
});
