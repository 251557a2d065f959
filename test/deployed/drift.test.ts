// Drift detection on the synthesized stacks, CloudFormation's answers replayed (moto has no drift
// detection: test/helpers/cloudformation-drift.ts): the wait is bounded and its clock injected, what
// changed is named resource by resource and property by property, what cannot be checked is said.

import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { afterEach, describe, expect, it } from '@jest/globals';
import { DRIFT_WAIT, DriftTimeoutError, detectDrift, stacksBeside } from '../../deployed/drift.ts';
import { synth } from '../helpers/cdk.ts';
import { NOT_DRIFT_CHECKED, type ReplayedStack, replayDriftDetection } from '../helpers/cloudformation-drift.ts';

const STACK = 'PlantStore-dev';
const REGION = 'eu-west-1';
const { template } = await synth({ env: 'dev', alarmEmail: 'oncall@example.com' });
const resources = Object.entries(template.toJSON().Resources as Record<string, { Type: string }>);
const firstOf = (type: string) => resources.find(([, resource]) => resource.Type === type)?.[0] ?? '';
const stage = firstOf('AWS::ApiGatewayV2::Stage');
const alarm = firstOf('AWS::CloudWatch::Alarm');
const table = firstOf('AWS::DynamoDB::Table');
const throttle = template.findResources('AWS::ApiGatewayV2::Stage')[stage]?.Properties.DefaultRouteSettings;

const byId = (a: { logicalId: string }, b: { logicalId: string }) => a.logicalId.localeCompare(b.logicalId);

let stop = async () => {};
afterEach(() => stop());

async function replaying(stack: Partial<ReplayedStack>) {
  const replay = await replayDriftDetection({
    [STACK]: { region: REGION, template: { Resources: Object.fromEntries(resources) }, ...stack },
  });
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
  const client = new CloudFormationClient({ endpoint: replay.endpoint, region: REGION, credentials });
  stop = () => {
    client.destroy();
    return replay.stop();
  };
  return { ...replay, client };
}

/** A clock that moves only when the detection waits. */
function clock() {
  const slept: number[] = [];
  let now = 0;
  return {
    slept,
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe('drift detection of a deployed stack', () => {
  it('waits for the detection, then names each resource changed or deleted, property by property, and each it cannot check', async () => {
    const { client, calls } = await replaying({
      detections: [
        { DetectionStatus: 'DETECTION_IN_PROGRESS' },
        { DetectionStatus: 'DETECTION_IN_PROGRESS' },
        { DetectionStatus: 'DETECTION_COMPLETE' },
      ],
      drifts: {
        [stage]: {
          StackResourceDriftStatus: 'MODIFIED',
          PropertyDifferences: [
            {
              PropertyPath: '/DefaultRouteSettings/ThrottlingRateLimit',
              ExpectedValue: String(throttle.ThrottlingRateLimit),
              ActualValue: '10000',
              DifferenceType: 'NOT_EQUAL',
            },
          ],
        },
        [alarm]: { StackResourceDriftStatus: 'DELETED' },
      },
    });
    const wait = clock();

    const drift = await detectDrift(client, STACK, wait);

    expect(wait.slept).toEqual([DRIFT_WAIT.pollMs, DRIFT_WAIT.pollMs]);
    expect(drift.drifted.sort(byId)).toEqual(
      [
        {
          logicalId: stage,
          type: 'AWS::ApiGatewayV2::Stage',
          status: 'MODIFIED',
          reason: undefined,
          differences: [
            {
              path: '/DefaultRouteSettings/ThrottlingRateLimit',
              expected: String(throttle.ThrottlingRateLimit),
              actual: '10000',
            },
          ],
        },
        { logicalId: alarm, type: 'AWS::CloudWatch::Alarm', status: 'DELETED', reason: undefined, differences: [] },
      ].sort(byId),
    );
    const unchecked = resources.filter(([, { Type }]) => NOT_DRIFT_CHECKED.includes(Type));
    // The role's inline policy, the alarm topic's policy; the CDK's metadata is no resource to name.
    expect(drift.notChecked).toEqual(
      unchecked
        .filter(([, { Type }]) => Type !== 'AWS::CDK::Metadata')
        .map(([logicalId, { Type }]) => ({ logicalId, type: Type })),
    );
    expect(drift.notChecked.map(({ type }) => type)).toContain('AWS::IAM::Policy');
    expect(drift.inSync).toBe(resources.length - unchecked.length - 2);
    expect(drift.failure).toBeUndefined();
    const asked = calls.find(({ action }) => action === 'DescribeStackResourceDrifts');
    expect([...(asked?.params ?? [])].filter(([key]) => key.startsWith('StackResourceDriftStatusFilters'))).toEqual([
      ['StackResourceDriftStatusFilters.member.1', 'MODIFIED'],
      ['StackResourceDriftStatusFilters.member.2', 'DELETED'],
      ['StackResourceDriftStatusFilters.member.3', 'UNKNOWN'],
    ]);
  });

  it('gives up after its documented wait, naming the detection still running', async () => {
    const { client, calls } = await replaying({ detections: [{ DetectionStatus: 'DETECTION_IN_PROGRESS' }] });
    const wait = clock();

    await expect(detectDrift(client, STACK, wait)).rejects.toThrow(
      new DriftTimeoutError(
        `Drift detection of ${STACK} still running after 5 minutes: aws cloudformation describe-stack-drift-detection-status --stack-drift-detection-id ${STACK}#1`,
      ),
    );
    expect(wait.slept.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(DRIFT_WAIT.timeoutMs);
    expect(calls.filter(({ action }) => action === 'DescribeStackDriftDetectionStatus')).toHaveLength(
      DRIFT_WAIT.timeoutMs / DRIFT_WAIT.pollMs + 1,
    );
  });

  it('reports a detection that failed, with its reason and each resource it could not check', async () => {
    const reason = `Failed to detect drift on resource [${table}]: not authorized to perform dynamodb:DescribeTable`;
    const { client } = await replaying({
      detections: [{ DetectionStatus: 'DETECTION_FAILED', DetectionStatusReason: reason }],
      drifts: { [table]: { StackResourceDriftStatus: 'UNKNOWN', DriftStatusReason: 'AccessDenied' } },
    });

    const drift = await detectDrift(client, STACK, clock());

    expect(drift.failure).toBe(reason);
    expect(drift.drifted.sort(byId)).toEqual([
      { logicalId: table, type: 'AWS::DynamoDB::Table', status: 'UNKNOWN', reason: 'AccessDenied', differences: [] },
    ]);
  });
});

describe('the stacks deployed beside it', () => {
  // With one, the option's own tests hold it (test/infra/<option>/).
  it("are none for a stack that reads no other stack's outputs", async () => {
    const { client } = await replaying({});

    expect(await stacksBeside(client, STACK)).toEqual([]);
  });
});
