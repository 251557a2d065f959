// `-c @aws-cdk/core:permissionsBoundary=NAME`, as the pipeline deploys: every role of the service's
// stack carries that boundary (which its environment's execution policy requires), and every
// resource its environment's tag (which other environments' policies refuse). Without the flags,
// as a deploy by hand: the environment's own boundary and bootstrap qualifier.

import { describe, expect, it } from '@jest/globals';
import type { Environment } from 'aws-cdk-lib';
import { BOOTSTRAP_QUALIFIER_KEY, PERMISSIONS_BOUNDARY_KEY } from '../../infra/deploy-access/bootstrap/app-boundary.ts';
import { boundaryName, qualifierOf, renderPolicy } from '../../infra/deploy-access/bootstrap/policies.ts';
import { OPTIONS } from '../../infra/options.ts';
import { ENVIRONMENT_TAG, stackRoleName } from '../../infra/stack-environment.ts';
import { boundaryDecisions } from '../helpers/boundary.ts';
import { synth } from '../helpers/cdk.ts';
import { ACCOUNT, decide, REGION, roleArn } from '../helpers/iam.ts';

/** The stack as the pipeline's `cdk deploy` synthesizes it, with this context on the command line. */
const synthesize = async (context: Record<string, string>, env?: Environment) =>
  (await synth(context, { ...(env && { env }) })).template;

const name = boundaryName('dev');
const template = await synthesize({ env: 'dev', [PERMISSIONS_BOUNDARY_KEY]: name });

/** Each option's samples as the pipeline deploys them to dev, with the stacks they add beside the service's. */
const SAMPLES = await Promise.all(
  OPTIONS.flatMap(({ samples }) => samples).map(async ({ name: sample, context, region }) => ({
    sample,
    ...(await synth(
      { env: 'dev', ...context, [PERMISSIONS_BOUNDARY_KEY]: name },
      { env: { account: ACCOUNT, region: region ?? REGION } },
    )),
  })),
);
const BESIDE = SAMPLES.flatMap(({ sample, beside }) =>
  Object.entries(beside).map(([suffix, { template }]) => ({ stack: `${sample}: ${suffix}`, template })),
);

if (SAMPLES.length > 0) {
  describe.each(SAMPLES)('with $sample', ({ template: own }) => {
    it("leaves every permission the stack gives its own roles within the environment's boundary", async () => {
      const decisions = await boundaryDecisions(own, 'PlantStore-dev', 'dev');
      expect(decisions.map(({ action }) => action)).toEqual(
        expect.arrayContaining(['dynamodb:Query', 'logs:PutLogEvents']),
      );
      for (const each of decisions) expect(each).toEqual({ ...each, decision: 'Allowed' });
    });
  });
}

if (BESIDE.length > 0) {
  it.each(BESIDE)(
    "$stack: tags every resource that takes tags with the environment's: its execution policy creates only what carries the tag",
    ({ template: beside }) => {
      const tagged = Object.values(beside.toJSON().Resources as Record<string, { Properties?: { Tags?: unknown } }>)
        .map(({ Properties }) => Properties?.Tags)
        .filter((tags) => tags !== undefined);
      expect(tagged.length).toBeGreaterThan(0);
      for (const tags of tagged) {
        expect(
          Array.isArray(tags) ? tags : Object.entries(tags as object).map(([Key, Value]) => ({ Key, Value })),
        ).toContainEqual({
          Key: ENVIRONMENT_TAG,
          Value: 'dev',
        });
      }
    },
  );
}

describe('the boundary named on the command line', () => {
  const roles = Object.values(template.findResources('AWS::IAM::Role'));

  it("bounds every role the stack creates by the environment's boundary", () => {
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) {
      expect(JSON.stringify(role.Properties.PermissionsBoundary)).toContain(`:policy/${name}"`);
    }
  });

  it.each([
    ['dev', {}],
    ['production', {}],
    // Another bootstrap's: the flags win.
    ['other', { [BOOTSTRAP_QUALIFIER_KEY]: qualifierOf('other'), [PERMISSIONS_BOUNDARY_KEY]: boundaryName('other') }],
  ])(
    "deploys through %s's bootstrap and under its boundary, by default the environment's own",
    async (owner, flags) => {
      const plain = await synthesize({ env: owner === 'production' ? 'production' : 'dev', ...flags });
      const roles = Object.values(plain.findResources('AWS::IAM::Role'));
      expect(roles.length).toBeGreaterThan(0);
      for (const role of roles) {
        expect(JSON.stringify(role.Properties.PermissionsBoundary)).toContain(`:policy/${boundaryName(owner)}"`);
      }
      expect(plain.toJSON().Parameters.BootstrapVersion.Default).toBe(`/cdk-bootstrap/${qualifierOf(owner)}/version`);
    },
  );

  it("tags the table, the function and the user pool with the stack's environment", () => {
    const tagged = (type: string) =>
      Object.values(template.findResources(type)).map(({ Properties }) => JSON.stringify(Properties));
    for (const type of ['AWS::DynamoDB::Table', 'AWS::Lambda::Function']) {
      for (const resource of tagged(type)) expect(resource).toContain(`{"Key":"${ENVIRONMENT_TAG}","Value":"dev"}`);
    }
    for (const pool of tagged('AWS::Cognito::UserPool')) expect(pool).toContain(`"${ENVIRONMENT_TAG}":"dev"`);
  });

  it("leaves every permission the stack gives its own roles (the IAM evaluator's decision)", async () => {
    const decisions = await boundaryDecisions(template, 'PlantStore-dev', 'dev');
    // Never vacuous: the function's own reads and log writes are among what is checked.
    expect(decisions.map(({ action }) => action)).toEqual(
      expect.arrayContaining(['dynamodb:Query', 'logs:PutLogEvents']),
    );
    for (const each of decisions) expect(each).toEqual({ ...each, decision: 'Allowed' });
  });

  // CodeDeploy shifts the alias with the group's service role, whose AWS managed policy
  // (AWSCodeDeployRoleForLambdaLimited: https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSCodeDeployRoleForLambdaLimited.html)
  // allows these on every resource: the boundary is what could refuse them mid-deploy.
  it("leaves CodeDeploy, acting with the stack's CodeDeploy role, the live alias and the group's alarms", async () => {
    const stack = 'PlantStore-dev';
    const [fn] = Object.keys(template.findResources('AWS::Lambda::Function'));
    // The alias's calls name the function (the evaluator cannot tell an alias ARN from a version's).
    const alias = `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${stack}-${fn}-AbCdEf`;
    const [group] = Object.values(template.findResources('AWS::CodeDeploy::DeploymentGroup'));
    const alarms = ((group?.Properties.AlarmConfiguration.Alarms ?? []) as { Name: { Ref: string } }[]).map(
      ({ Name }) => `arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:${stack}-${Name.Ref}-AbCdEf`,
    );
    expect(alarms.length).toBeGreaterThan(0);
    const calls = [
      ...['lambda:GetAlias', 'lambda:UpdateAlias'].map((action) => [action, alias]),
      ...alarms.map((alarm) => ['cloudwatch:DescribeAlarms', alarm]),
    ];
    const anything = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] };
    for (const [action = '', resource = ''] of calls) {
      const { decision } = await decide({
        request: {
          principal: roleArn(stackRoleName(stack, 'CodeDeploy')),
          action,
          resource: { resource, accountId: ACCOUNT },
          contextVariables: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: 'dev' },
        },
        identityPolicies: [{ name: 'AWSCodeDeployRoleForLambdaLimited', policy: anything }],
        permissionBoundaryPolicies: [
          {
            name: 'boundary',
            policy: renderPolicy('permissions-boundary', 'dev', { accountId: ACCOUNT, partition: 'aws' }),
          },
        ],
      });
      expect({ action, resource, decision }).toEqual({ action, resource, decision: 'Allowed' });
    }
  });
});
