// What a stack's own roles may do under their environment's permissions boundary, decided by the
// IAM evaluator (test/helpers/iam.ts) for each grant of the stack's policies, on the resource
// CloudFormation would name. Read by bootstrap-boundary.test.ts and each option's own check.

import type { Template } from 'aws-cdk-lib/assertions';
import { renderPolicy } from '../../infra/deploy-access/bootstrap/policies.ts';
import { ACCOUNT, decide, REGION } from './iam.ts';

/** What CloudFormation names an unnamed resource of the stack, and the ARN IAM then sees. */
function arnIn(template: Template, stack: string, value: unknown): string {
  if (typeof value === 'string') return value;
  const object = value as Record<string, unknown>;
  if ('Fn::Join' in object) {
    const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => arnIn(template, stack, part)).join(separator);
  }
  if ('Ref' in object)
    return (
      ({ 'AWS::Partition': 'aws', 'AWS::AccountId': ACCOUNT, 'AWS::Region': REGION } as Record<string, string>)[
        object.Ref as string
      ] ?? ''
    );
  const [id, attribute] = object['Fn::GetAtt'] as [string, string];
  const resource = template.toJSON().Resources[id];
  const physical = `${stack}-${id}-1A2B3C`;
  if (attribute !== 'Arn') throw new Error(`no value for ${id}.${attribute}`);
  if (resource.Type === 'AWS::DynamoDB::Table') return `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${physical}`;
  if (resource.Type === 'AWS::Logs::LogGroup') {
    return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${resource.Properties.LogGroupName ?? physical}:*`;
  }
  throw new Error(`no ARN for ${resource.Type}`);
}

/** A concrete resource a policy's ARN pattern stands for, of the type the action acts on. */
const instanceOf = (action: string, arn: string) =>
  /^logs:(PutLogEvents|CreateLogStream)$/.test(action)
    ? arn.replace(/:\*$/, ':log-stream:one')
    : arn.replace(/\*$/, 'one');

/** Each action and resource the stack's inline policies grant, with the evaluator's decision under `environment`'s boundary. */
export async function boundaryDecisions(template: Template, stack: string, environment: string) {
  const resolved = (each: unknown): unknown => {
    if (Array.isArray(each)) return each.map(resolved);
    if (each === null || typeof each !== 'object') return each;
    if (['Ref', 'Fn::Join', 'Fn::GetAtt'].some((key) => key in each)) return arnIn(template, stack, each);
    return Object.fromEntries(Object.entries(each).map(([key, inner]) => [key, resolved(inner)]));
  };
  // biome-ignore lint/suspicious/noExplicitAny: IAM documents as synthesized
  const inline: any[] = [
    ...Object.values(template.findResources('AWS::IAM::Policy')).map(({ Properties }) => Properties.PolicyDocument),
    ...Object.values(template.findResources('AWS::IAM::Role')).flatMap(({ Properties }) =>
      (Properties.Policies ?? []).map((policy: { PolicyDocument: unknown }) => policy.PolicyDocument),
    ),
  ].map(resolved);
  const boundary = renderPolicy('permissions-boundary', environment, { accountId: ACCOUNT, partition: 'aws' });
  const grants = inline.flatMap((document) =>
    // biome-ignore lint/suspicious/noExplicitAny: IAM statements as synthesized
    document.Statement.flatMap((statement: any) =>
      [statement.Action]
        .flat()
        .flatMap((action: string) =>
          [statement.Resource]
            .flat()
            .map((resource: unknown) => ({ action, resource: instanceOf(action, arnIn(template, stack, resource)) })),
        ),
    ),
  );
  const decisions: { action: string; resource: string; decision: string }[] = [];
  for (const { action, resource } of grants) {
    const { decision } = await decide({
      request: {
        principal: `arn:aws:iam::${ACCOUNT}:role/${stack}-Role-ABC`,
        action,
        resource: { resource, accountId: ACCOUNT },
        contextVariables: {},
      },
      identityPolicies: inline.map((policy, index) => ({ name: `inline${index}`, policy })),
      permissionBoundaryPolicies: [{ name: 'boundary', policy: boundary }],
    });
    decisions.push({ action, resource, decision });
  }
  return decisions;
}
