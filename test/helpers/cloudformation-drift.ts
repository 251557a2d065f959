// CloudFormation's drift detection, replayed: moto_server implements none of it (no DetectStackDrift,
// DescribeStackDriftDetectionStatus or DescribeStackResourceDrifts, and no DriftInformation in
// ListStackResources), so this endpoint answers those calls, and GetTemplate, in CloudFormation's
// Query protocol, with the response elements the API reference documents, for stacks a test describes.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callSources } from '../../infra/deploy-access/call-sources.ts';
import { DRIFT_READS } from '../../infra/deploy-access/reads.ts';

/** Types CloudFormation cannot drift-check (no read handler in their resource schemas): NOT_CHECKED. An option's say so in its calls.json. */
export const NOT_DRIFT_CHECKED = [
  'AWS::IAM::Policy',
  'AWS::SNS::TopicPolicy',
  'AWS::CDK::Metadata',
  ...[...callSources().types.values()].filter(({ driftReads }) => driftReads === null).map(({ type }) => type),
];

/** The types of a synthesized template the deploy roles grant no drift read for, though it checks them. */
export const typesWithoutDriftReads = (template: { Resources: Record<string, { Type: string }> }) =>
  [...new Set(Object.values(template.Resources).map(({ Type }) => Type))].filter(
    (type) => !(type in DRIFT_READS) && !NOT_DRIFT_CHECKED.includes(type),
  );

export interface ResourceDrift {
  StackResourceDriftStatus: 'MODIFIED' | 'DELETED' | 'UNKNOWN';
  PropertyDifferences?: { PropertyPath: string; ExpectedValue: string; ActualValue: string; DifferenceType: string }[];
  DriftStatusReason?: string;
}

export interface ReplayedStack {
  /** Its Region: a call signed for another one does not find it. */
  region: string;
  template: { Resources: Record<string, { Type: string }> };
  /** DescribeStackDriftDetectionStatus's answers in turn, the last one repeated; by default complete at once. */
  detections?: { DetectionStatus: string; DetectionStatusReason?: string }[];
  /** By logical id; every other resource of a type drift detection checks is IN_SYNC. */
  drifts?: Record<string, ResourceDrift>;
}

export interface Call {
  action: string;
  region: string;
  params: URLSearchParams;
}

// The Query protocol's XML: a list's items as <member>, text escaped.
const xml = (value: unknown): string => {
  if (Array.isArray(value)) return value.map((each) => `<member>${xml(each)}</member>`).join('');
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([key, inner]) => `<${key}>${xml(inner)}</${key}>`)
      .join('');
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
};
const envelope = (action: string, result: object) =>
  `<${action}Response xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><${action}Result>${xml(result)}</${action}Result><ResponseMetadata><RequestId>0a1b2c3d</RequestId></ResponseMetadata></${action}Response>`;
const NOW = '2026-01-01T00:00:00.000Z';

export async function replayDriftDetection(stacks: Record<string, ReplayedStack>) {
  const calls: Call[] = [];
  let started = 0;
  const polls = new Map<string, number>();
  const answer = (action: string, region: string, params: URLSearchParams): object => {
    const name = params.get('StackName') ?? params.get('StackDriftDetectionId')?.replace(/#\d+$/, '') ?? '';
    const stack = stacks[name];
    if (stack?.region !== region) throw new Error(`Stack with id ${name} does not exist`);
    const StackId = `arn:aws:cloudformation:${region}:123456789012:stack/${name}/0a1b2c3d`;
    const drifts = stack.drifts ?? {};
    const resources = Object.entries(stack.template.Resources).map(([id, { Type }]) => ({
      LogicalResourceId: id,
      PhysicalResourceId: `${name}-${id}-1A2B3C4D`,
      ResourceType: Type,
      drift: NOT_DRIFT_CHECKED.includes(Type) ? 'NOT_CHECKED' : (drifts[id]?.StackResourceDriftStatus ?? 'IN_SYNC'),
    }));
    if (action === 'GetTemplate') return { TemplateBody: JSON.stringify(stack.template) };
    if (action === 'DetectStackDrift') return { StackDriftDetectionId: `${name}#${++started}` };
    if (action === 'DescribeStackDriftDetectionStatus') {
      const asked = polls.get(name) ?? 0;
      polls.set(name, asked + 1);
      const detections = stack.detections ?? [{ DetectionStatus: 'DETECTION_COMPLETE' }];
      const drifted = Object.keys(drifts).length;
      return {
        StackId,
        StackDriftDetectionId: params.get('StackDriftDetectionId'),
        StackDriftStatus: drifted > 0 ? 'DRIFTED' : 'IN_SYNC',
        ...detections[Math.min(asked, detections.length - 1)],
        DriftedStackResourceCount: drifted,
        Timestamp: NOW,
      };
    }
    if (action === 'DescribeStackResourceDrifts') {
      const wanted = [...params].filter(([key]) => key.startsWith('StackResourceDriftStatusFilters.'));
      const StackResourceDrifts = resources
        .filter(({ drift }) => drift !== 'NOT_CHECKED')
        .filter(({ drift }) => wanted.length === 0 || wanted.some(([, status]) => status === drift))
        .map(({ drift, ...resource }) => ({
          StackId,
          ...resource,
          ...drifts[resource.LogicalResourceId],
          Timestamp: NOW,
        }))
        .map((each) => ({ ...each, StackResourceDriftStatus: each.StackResourceDriftStatus ?? 'IN_SYNC' }));
      return { StackResourceDrifts };
    }
    if (action === 'ListStackResources') {
      const StackResourceSummaries = resources.map(({ drift, ...resource }) => ({
        ...resource,
        LastUpdatedTimestamp: NOW,
        ResourceStatus: 'CREATE_COMPLETE',
        DriftInformation: { StackResourceDriftStatus: drift, LastCheckTimestamp: NOW },
      }));
      return { StackResourceSummaries };
    }
    throw new Error(`${action} is not replayed`);
  };

  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const params = new URLSearchParams(body);
      const action = params.get('Action') ?? '';
      // SigV4's credential scope names the Region the client was made for.
      const region = /Credential=[^/]+\/\d+\/([\w-]+)\//.exec(request.headers.authorization ?? '')?.[1] ?? '';
      calls.push({ action, region, params });
      try {
        response.writeHead(200, { 'content-type': 'text/xml' }).end(envelope(action, answer(action, region, params)));
      } catch (error) {
        const message = xml((error as Error).message);
        response
          .writeHead(400, { 'content-type': 'text/xml' })
          .end(
            `<ErrorResponse><Error><Type>Sender</Type><Code>ValidationError</Code><Message>${message}</Message></Error><RequestId>0a1b2c3d</RequestId></ErrorResponse>`,
          );
      }
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    stop: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
