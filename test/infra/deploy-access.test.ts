// The access stack as synthesized: who may assume each role (audience, repository, one environment
// per deploy role, pull requests) and exactly what each may do; cdk-nag and cfn-lint clean.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SMOKE_COGNITO_ACTIONS } from '../../infra/deploy-access.ts';
import { bootstrap, resources, rolePolicy, roleTrust, synthAccess } from '../helpers/access-stack.ts';
import { cfnLint } from '../helpers/cfn-lint.ts';

describe('the access stack, created with its own OIDC provider', () => {
  const { app, template, path } = synthAccess({ githubRepository: 'octo-org/plant-store' });

  it('creates the GitHub OIDC provider for the STS audience', () => {
    expect(resources(template, 'AWS::IAM::OIDCProvider')).toEqual([
      expect.objectContaining({
        Url: 'https://token.actions.githubusercontent.com',
        ClientIdList: ['sts.amazonaws.com'],
      }),
    ]);
  });

  const stacks = (name: string) => [
    `arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/${name}/*`,
    `arn:<AWS::Partition>:cloudformation:us-east-1:<AWS::AccountId>:stack/${name}EdgeWaf/*`,
  ];
  const roles = [
    { role: 'DeployRoleDev', environment: 'dev', stack: 'PlantStore-dev' },
    { role: 'DeployRoleProduction', environment: 'production', stack: 'PlantStore' },
  ];

  it.each(roles)(
    "lets only the repository's $environment GitHub environment assume $role, for the STS audience",
    ({ role, environment }) => {
      expect(roleTrust(template, role)).toEqual([
        {
          Effect: 'Allow',
          Action: 'sts:AssumeRoleWithWebIdentity',
          Principal: { Federated: expect.stringMatching(/^<GitHubOidc[0-9A-F]+>$/) },
          Condition: {
            StringEquals: {
              'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
              'token.actions.githubusercontent.com:sub': `repo:octo-org/plant-store:environment:${environment}`,
            },
          },
        },
      ]);
    },
  );

  it.each(roles)(
    "lets $role assume the bootstrap roles (this Region's and us-east-1's), read the $stack stacks and make a smoke user only in the pool tagged $environment, nothing else",
    ({ role, environment, stack }) => {
      expect(rolePolicy(template, role)).toEqual([
        {
          Sid: 'CdkBootstrapRoles',
          Effect: 'Allow',
          Action: 'sts:AssumeRole',
          Resource: ['deploy', 'file-publishing', 'lookup'].flatMap((kind) => [
            bootstrap('hnb659fds', kind),
            bootstrap('hnb659fds', kind, 'us-east-1'),
          ]),
        },
        { Sid: 'ReadStackOutputs', Effect: 'Allow', Action: 'cloudformation:DescribeStacks', Resource: stacks(stack) },
        {
          Sid: 'SmokeUserInEnvironmentPool',
          Effect: 'Allow',
          Action: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser', 'cognito-idp:AdminSetUserPassword'],
          Resource: 'arn:<AWS::Partition>:cognito-idp:<AWS::Region>:<AWS::AccountId>:userpool/*',
          Condition: { StringEquals: { 'aws:ResourceTag/PlantStoreEnvironment': environment } },
        },
      ]);
    },
  );

  it('outputs one deploy role ARN per environment, each for that GitHub environment’s AWS_DEPLOY_ROLE_ARN', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Description: string; Value: unknown }>;
    for (const { role, environment } of roles) {
      const output = outputs[role.replace('DeployRole', 'DeployRoleArn')];
      expect(output?.Description).toBe(`vars.AWS_DEPLOY_ROLE_ARN of GitHub environment ${environment}`);
      expect(JSON.stringify(output?.Value)).toContain(role);
    }
  });

  it("lets the repository's pull requests assume the diff role, which may only read the environments' stacks' templates", () => {
    expect(roleTrust(template, 'DiffRole')).toEqual([
      expect.objectContaining({
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: {
            'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
            'token.actions.githubusercontent.com:sub': 'repo:octo-org/plant-store:pull_request',
          },
        },
      }),
    ]);
    // No sts:AssumeRole at all: the bootstrap lookup role would read every table's items.
    expect(rolePolicy(template, 'DiffRole')[0].Resource).toHaveLength(4);
    expect(rolePolicy(template, 'DiffRole')).toEqual([
      {
        Sid: 'ReadStackTemplates',
        Effect: 'Allow',
        Action: ['cloudformation:DescribeStacks', 'cloudformation:GetTemplate'],
        // IAM's order, not ours: the same four ARNs.
        Resource: expect.arrayContaining([...stacks('PlantStore-dev'), ...stacks('PlantStore')]),
      },
    ]);
  });

  it('attaches no managed policy and no inline policy beyond those', () => {
    for (const role of resources(template, 'AWS::IAM::Role')) {
      expect(role).not.toHaveProperty('ManagedPolicyArns');
      expect(role).not.toHaveProperty('Policies');
    }
    expect(resources(template, 'AWS::IAM::Policy')).toHaveLength(3);
  });

  it('grants the Cognito calls the smoke check makes for its token, and no other (InitiateAuth needs no IAM permission)', () => {
    const source = readFileSync(new URL('../../deployed/cognito.ts', import.meta.url), 'utf8');
    const calls = new Set([...source.matchAll(/new (\w+)Command\(/g)].map(([, name]) => `cognito-idp:${name}`));
    // Only with --groups, which the smoke check never passes.
    const groupsOnly = ['cognito-idp:CreateGroup', 'cognito-idp:AdminAddUserToGroup'];
    expect([...calls].filter((call) => !groupsOnly.includes(call)).sort()).toEqual(
      [...SMOKE_COGNITO_ACTIONS, 'cognito-idp:InitiateAuth'].sort(),
    );
  });

  it('leaves no cdk-nag finding unacknowledged, and gives each acknowledgement a reason', () => {
    expect(new AwsSolutionsChecks().validateScope(app).violations).toEqual([]);
    const acknowledged = app.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
    expect(acknowledged.map(([id]) => id.replace(/^annotation::/i, '').replace(/\[.*/, ''))).toEqual(
      Array(3 + 3 + 4).fill('AwsSolutions-IAM5'),
    );
    for (const [, reason] of acknowledged) expect(reason.length).toBeGreaterThan(60);
  });

  it('passes cfn-lint', async () => {
    await expect(cfnLint([path])).resolves.toBeUndefined();
  }, 120_000);
});
