// CloudFormation drift detection on a deployed stack: each resource changed or deleted outside
// CloudFormation, as CloudFormation compares its live properties with the template's.

import { setTimeout } from 'node:timers/promises';
import {
  type CloudFormationClient,
  DescribeStackDriftDetectionStatusCommand,
  DetectStackDriftCommand,
  GetTemplateCommand,
  paginateDescribeStackResourceDrifts,
  paginateListStackResources,
} from '@aws-sdk/client-cloudformation';

/** How long one stack's detection may take (AWS: "up to several minutes"), and how often it is asked. */
export const DRIFT_WAIT = { timeoutMs: 5 * 60_000, pollMs: 5_000 };

export class DriftTimeoutError extends Error {
  override name = 'DriftTimeoutError';
}

/** What the check reports of a resource CloudFormation checked: changed, deleted, or not checkable this time. */
const DRIFTED = ['MODIFIED' as const, 'DELETED' as const, 'UNKNOWN' as const];

const realWait = { ...DRIFT_WAIT, now: Date.now, sleep: (ms: number): Promise<unknown> => setTimeout(ms) };
export type StackDrift = Awaited<ReturnType<typeof detectDrift>>;

/**
 * Starts drift detection on `stackName`, waits for it (`wait`, for tests), and reads what it found: each
 * resource MODIFIED, DELETED or UNKNOWN (not checkable this time: `reason` says why) with each property's
 * path in the template; those of a type drift detection does not check; and DETECTION_FAILED's reason (a
 * read the caller may not make, say), beside which the other results still stand.
 */
export async function detectDrift(
  cloudformation: CloudFormationClient,
  stackName: string,
  wait: Partial<typeof realWait> = {},
) {
  const { timeoutMs, pollMs, now, sleep } = { ...realWait, ...wait };
  const { StackDriftDetectionId } = await cloudformation.send(new DetectStackDriftCommand({ StackName: stackName }));
  const deadline = now() + timeoutMs;
  const status = () => cloudformation.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId }));
  let detection = await status();
  while (detection.DetectionStatus === 'DETECTION_IN_PROGRESS') {
    if (now() + pollMs > deadline) {
      throw new DriftTimeoutError(
        `Drift detection of ${stackName} still running after ${timeoutMs / 60_000} minutes: aws cloudformation describe-stack-drift-detection-status --stack-drift-detection-id ${StackDriftDetectionId}`,
      );
    }
    await sleep(pollMs);
    detection = await status();
  }

  const drifted = [];
  const filter = { StackName: stackName, StackResourceDriftStatusFilters: DRIFTED };
  for await (const page of paginateDescribeStackResourceDrifts({ client: cloudformation }, filter)) {
    for (const drift of page.StackResourceDrifts ?? []) {
      drifted.push({
        logicalId: drift.LogicalResourceId ?? '',
        type: drift.ResourceType ?? '',
        status: drift.StackResourceDriftStatus ?? '',
        reason: drift.DriftStatusReason,
        differences: (drift.PropertyDifferences ?? []).map(({ PropertyPath, ExpectedValue, ActualValue }) => ({
          path: PropertyPath ?? '',
          expected: ExpectedValue ?? '',
          actual: ActualValue ?? '',
        })),
      });
    }
  }
  // Which resources were not checked, only the stack's list says (DescribeStackResourceDrifts leaves them out).
  const notChecked: { logicalId: string; type: string }[] = [];
  let inSync = 0;
  for await (const page of paginateListStackResources({ client: cloudformation }, { StackName: stackName })) {
    for (const { LogicalResourceId, ResourceType, DriftInformation } of page.StackResourceSummaries ?? []) {
      const state = DriftInformation?.StackResourceDriftStatus;
      if (state === 'IN_SYNC') inSync++;
      // The CDK's version report is no AWS resource: nothing there to drift.
      else if (state === 'NOT_CHECKED' && ResourceType !== 'AWS::CDK::Metadata')
        notChecked.push({ logicalId: LogicalResourceId ?? '', type: ResourceType ?? '' });
    }
  }
  const failure =
    detection.DetectionStatus === 'DETECTION_FAILED'
      ? (detection.DetectionStatusReason ?? 'no reason given')
      : undefined;
  return { drifted, notChecked, inSync, failure };
}

/**
 * The stacks `stackName` reads outputs of (`Fn::GetStackOutput`, the CDK's cross-Region references),
 * which the same `cdk deploy --all` deploys; `region` undefined: its own.
 */
export async function stacksBeside(
  cloudformation: CloudFormationClient,
  stackName: string,
): Promise<{ stackName: string; region: string | undefined }[]> {
  const { TemplateBody = '{}' } = await cloudformation.send(new GetTemplateCommand({ StackName: stackName }));
  const found = new Map<string, string | undefined>();
  JSON.parse(TemplateBody, (key, value) => {
    if (key === 'Fn::GetStackOutput' && typeof value?.StackName === 'string') found.set(value.StackName, value.Region);
    return value;
  });
  return [...found].map(([name, region]) => ({ stackName: name, region }));
}
