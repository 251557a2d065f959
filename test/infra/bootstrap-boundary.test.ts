// `-c @aws-cdk/core:permissionsBoundary=NAME`, as the pipeline deploys: every role of the service's
// stack carries that boundary (which its environment's execution policy requires), and every
// resource its environment's tag (which other environments' policies refuse).

import { describe, expect, it } from '@jest/globals';
import type { Environment } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { PERMISSIONS_BOUNDARY_KEY } from '../../infra/bootstrap/app-boundary.ts';
import { boundaryName, renderPolicy } from '../../infra/bootstrap/policies.ts';
import { ENVIRONMENT_TAG } from '../../infra/stack-environment.ts';
import { synth } from '../helpers/cdk.ts';
import { ACCOUNT, decide, REGION } from '../helpers/iam.ts';

/** The stack as the pipeline's `cdk deploy` synthesizes it, with this context on the command line. */
const synthesize = async (context: Record<string, string>, env?: Environment) =>
  (await synth(context, { ...(env && { env }) })).template;

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

const name = boundaryName('dev');
const template = await synthesize({ env: 'dev', [PERMISSIONS_BOUNDARY_KEY]: name });

describe('the boundary named on the command line', () => {
  const roles = Object.values(template.findResources('AWS::IAM::Role'));

  it("bounds every role the stack creates by the environment's boundary", () => {
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) {
      expect(JSON.stringify(role.Properties.PermissionsBoundary)).toContain(`:policy/${name}"`);
    }
  });

  it('leaves roles unbounded without the flag, as a deploy by hand with a default bootstrap needs', async () => {
    const plain = await synthesize({ env: 'dev' });
    for (const role of Object.values(plain.findResources('AWS::IAM::Role'))) {
      expect(role.Properties.PermissionsBoundary).toBeUndefined();
    }
  });

  it("tags the table, the function and the user pool with the stack's environment", () => {
    const tagged = (type: string) =>
      Object.values(template.findResources(type)).map(({ Properties }) => JSON.stringify(Properties));
    for (const type of ['AWS::DynamoDB::Table', 'AWS::Lambda::Function']) {
      for (const resource of tagged(type)) expect(resource).toContain(`{"Key":"${ENVIRONMENT_TAG}","Value":"dev"}`);
    }
    for (const pool of tagged('AWS::Cognito::UserPool')) expect(pool).toContain(`"${ENVIRONMENT_TAG}":"dev"`);
  });

  it('leaves every permission the stack gives its own roles, with the edge too', async () => {
    const stack = 'PlantStore-dev';
    const edge = await synthesize(
      { env: 'dev', edge: 'true', [PERMISSIONS_BOUNDARY_KEY]: name },
      { account: ACCOUNT, region: REGION },
    );
    const resolved = (each: unknown): unknown => {
      if (Array.isArray(each)) return each.map(resolved);
      if (each === null || typeof each !== 'object') return each;
      if (['Ref', 'Fn::Join', 'Fn::GetAtt'].some((key) => key in each)) return arnIn(edge, stack, each);
      return Object.fromEntries(Object.entries(each).map(([key, inner]) => [key, resolved(inner)]));
    };
    // biome-ignore lint/suspicious/noExplicitAny: IAM documents as synthesized
    const inline: any[] = [
      ...Object.values(edge.findResources('AWS::IAM::Policy')).map(({ Properties }) => Properties.PolicyDocument),
      ...Object.values(edge.findResources('AWS::IAM::Role')).flatMap(({ Properties }) =>
        (Properties.Policies ?? []).map((policy: { PolicyDocument: unknown }) => policy.PolicyDocument),
      ),
    ].map(resolved);
    const boundary = renderPolicy('permissions-boundary', 'dev', { accountId: ACCOUNT, partition: 'aws' });
    const grants = inline.flatMap((document) =>
      // biome-ignore lint/suspicious/noExplicitAny: IAM statements as synthesized
      document.Statement.flatMap((statement: any) =>
        [statement.Action]
          .flat()
          .flatMap((action: string) =>
            [statement.Resource]
              .flat()
              .map((resource: unknown) => ({ action, resource: instanceOf(action, arnIn(edge, stack, resource)) })),
          ),
      ),
    );
    // Never vacuous: the function's own reads and log writes are among what is checked.
    expect(grants.map(({ action }) => action)).toEqual(expect.arrayContaining(['dynamodb:Query', 'logs:PutLogEvents']));
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
      expect({ action, resource, decision }).toEqual({ action, resource, decision: 'Allowed' });
    }
  });
});
