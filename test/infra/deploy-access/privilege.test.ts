// What the pipeline's roles may do in one account, decided by an IAM evaluator over the synthesized
// access stack, the shipped execution policy and boundary (infra/deploy-access/bootstrap/), and the CDK bootstrap
// template's roles: no role the pipeline reaches is an administrator, and dev's path reaches none of
// production's stack, table, users, execution role or assets.

import { describe, expect, it } from '@jest/globals';
import {
  boundaryName,
  EXECUTION_POLICY_FILES,
  qualifierOf,
  renderPolicy,
  smokeSecretName,
} from '../../../infra/deploy-access/bootstrap/policies.ts';
import { callSources } from '../../../infra/deploy-access/call-sources.ts';
import { defaultStackName, ENVIRONMENT_TAG, stackRoleName } from '../../../infra/stack-environment.ts';
import { synthAccess } from '../../helpers/access-stack.ts';
import { bootstrapRole } from '../../helpers/bootstrap-template.ts';
import {
  ACCOUNT,
  type Decision,
  decide,
  decideHttpApi,
  type PolicyDocument,
  REGION,
  resolveIn,
  roleArn,
  secretArn,
} from '../../helpers/iam.ts';

const { template } = await synthAccess({ githubRepository: 'octo-org/plant-store', githubRepositoryId: '2002' });
const ENVIRONMENTS = ['dev', 'production'] as const;
type Environment = (typeof ENVIRONMENTS)[number];
const where = { accountId: ACCOUNT, partition: 'aws' };

/** A role's inline policies as IAM will hold them. */
function identityOf(idPrefix: string): PolicyDocument[] {
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith(idPrefix))
    .map(([, policy]) => resolveIn(template, policy.Properties.PolicyDocument));
}

/** The principals the pipeline reaches, each with the policies that bound what it may do. */
const principals = {
  ...Object.fromEntries(
    ENVIRONMENTS.map((environment) => [
      `GitHub deploy role (${environment})`,
      {
        arn: roleArn(`DeployRole-${environment}`),
        identity: identityOf(`DeployRole${environment === 'dev' ? 'Dev' : 'Production'}`),
      },
    ]),
  ),
  'GitHub diff role': { arn: roleArn('DiffRole'), identity: identityOf('DiffRole') },
  ...Object.fromEntries(
    ENVIRONMENTS.map((environment) => [
      `execution role (${environment})`,
      {
        arn: roleArn(`cdk-${qualifierOf(environment)}-cfn-exec-role-${ACCOUNT}-${REGION}`),
        identity: EXECUTION_POLICY_FILES.map((file) => renderPolicy(file, environment, where)),
      },
    ]),
  ),
  // Whatever a stack puts in a role's own policy, the boundary caps it: the worst case is `*`.
  ...Object.fromEntries(
    ENVIRONMENTS.map((environment) => [
      `any role a ${environment} stack creates`,
      {
        arn: roleArn(`${defaultStackName(environment)}-AnyRole-ABC`),
        identity: [{ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] }],
        boundary: renderPolicy('permissions-boundary', environment, where),
      },
    ]),
  ),
} as Record<string, { arn: string; identity: PolicyDocument[]; boundary?: PolicyDocument }>;

async function may(
  principal: string,
  action: string,
  resource: string,
  context: Record<string, string> = {},
): Promise<Decision> {
  const who = principals[principal];
  if (!who) throw new Error(`no principal ${principal}`);
  const simulation = {
    request: { principal: who.arn, action, resource: { resource, accountId: ACCOUNT }, contextVariables: context },
    identityPolicies: who.identity.map((policy, index) => ({ name: `policy${index}`, policy })),
    ...(who.boundary && { permissionBoundaryPolicies: [{ name: 'boundary', policy: who.boundary }] }),
  };
  if (/^arn:aws:apigateway:[\w-]+::\/(apis(\/|$)|domainnames\/.*\/apimappings)/.test(resource)) {
    return decideHttpApi(simulation);
  }
  return (await decide(simulation)).decision;
}

// One environment's resources, as their ARNs and tags will be once deployed.
const of = (environment: Environment) => {
  const stack = defaultStackName(environment);
  const qualifier = qualifierOf(environment);
  return {
    name: stack,
    stack: `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${stack}/0a1b2c3d`,
    table: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${stack}-TableCD117FA1-1A2B3C`,
    pool: `arn:aws:cognito-idp:${REGION}:${ACCOUNT}:userpool/${REGION}_AbCdEf${environment.length}`,
    // The HTTP API (apigateway /apis) is fenced by the same tag, but the evaluator's data has no
    // resource type for its PATCH: not evaluated here (docs/pipeline.md says what one account shares).
    function: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${stack}-Function76856677-AbCdEf`,
    execution: roleArn(`cdk-${qualifier}-cfn-exec-role-${ACCOUNT}-${REGION}`),
    assets: `arn:aws:s3:::cdk-${qualifier}-assets-${ACCOUNT}-${REGION}/0123abcd.zip`,
    smokeSecret: secretArn(smokeSecretName(environment)),
    tag: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environment },
  };
};
const dev = of('dev');
const production = of('production');

describe("dev's path in one account", () => {
  const devPrincipals = ['GitHub deploy role (dev)', 'execution role (dev)', 'any role a dev stack creates'];
  const reads = [
    ['read production’s table', 'dynamodb:GetItem', production.table, production.tag],
    ['write production’s table', 'dynamodb:PutItem', production.table, production.tag],
    ['set a production user’s password', 'cognito-idp:AdminSetUserPassword', production.pool, production.tag],
    ['change production’s stack', 'cloudformation:ExecuteChangeSet', production.stack, {}],
    ['change production’s function', 'lambda:UpdateFunctionCode', production.function, production.tag],
    ['read production’s smoke password', 'secretsmanager:GetSecretValue', production.smokeSecret, production.tag],
  ] as const;
  for (const principal of devPrincipals) {
    it.each(reads)(`${principal} cannot %s`, async (_what, action, resource, context) => {
      expect(await may(principal, action, resource, context)).not.toBe('Allowed');
    });
  }

  it("GitHub's dev role takes neither production's execution role nor its assets, and no bootstrap role at all", async () => {
    const role = 'GitHub deploy role (dev)';
    const pass = { 'iam:PassedToService': 'cloudformation.amazonaws.com' };
    expect(await may(role, 'iam:PassRole', dev.execution, pass)).toBe('Allowed');
    expect(await may(role, 'iam:PassRole', production.execution, pass)).not.toBe('Allowed');
    expect(await may(role, 'iam:SimulatePrincipalPolicy', dev.execution)).toBe('Allowed');
    expect(await may(role, 'iam:SimulatePrincipalPolicy', production.execution)).not.toBe('Allowed');
    expect(await may(role, 's3:PutObject', dev.assets)).toBe('Allowed');
    expect(await may(role, 's3:PutObject', production.assets)).not.toBe('Allowed');
    for (const qualifier of ['hnb659fds', qualifierOf('dev'), qualifierOf('production')]) {
      for (const kind of ['DeploymentActionRole', 'LookupRole', 'FilePublishingRole']) {
        const target = bootstrapRole(kind, qualifier);
        const { decision } = await decide({
          request: {
            principal: principals[role]?.arn ?? '',
            action: 'sts:AssumeRole',
            resource: { resource: target.arn, accountId: ACCOUNT },
            contextVariables: {},
          },
          identityPolicies: (principals[role]?.identity ?? []).map((policy, index) => ({
            name: `policy${index}`,
            policy,
          })),
          resourcePolicy: target.trust,
        });
        expect({ kind, qualifier, decision }).toEqual({ kind, qualifier, decision: 'ImplicitlyDenied' });
      }
    }
  });

  it('still deploys its own: change sets of its stack, its table, its pool, under its own tag', async () => {
    expect(await may('GitHub deploy role (dev)', 'cloudformation:ExecuteChangeSet', dev.stack)).toBe('Allowed');
    expect(await may('execution role (dev)', 'dynamodb:CreateTable', dev.table, dev.tag)).toBe('Allowed');
    expect(await may('execution role (dev)', 'cognito-idp:UpdateUserPool', dev.pool, dev.tag)).toBe('Allowed');
    expect(await may('any role a dev stack creates', 'dynamodb:Query', dev.table, dev.tag)).toBe('Allowed');
  });
});

describe('no role the pipeline reaches is an administrator', () => {
  const newRole = roleArn('PlantStore-dev-Escalate-ABC');
  const escalations = [
    ['create an IAM user', 'iam:CreateUser', roleArn('x').replace(':role/x', ':user/intruder'), {}],
    ['give a user an access key', 'iam:CreateAccessKey', roleArn('x').replace(':role/x', ':user/intruder'), {}],
    [
      'attach AdministratorAccess',
      'iam:AttachRolePolicy',
      newRole,
      { 'iam:PolicyARN': 'arn:aws:iam::aws:policy/AdministratorAccess' },
    ],
    ['create a role without the boundary', 'iam:CreateRole', newRole, {}],
    [
      'create a role under another boundary',
      'iam:CreateRole',
      newRole,
      { 'iam:PermissionsBoundary': `arn:aws:iam::${ACCOUNT}:policy/Open` },
    ],
    ['remove a role’s boundary', 'iam:DeleteRolePermissionsBoundary', newRole, {}],
    ['rewrite the boundary', 'iam:CreatePolicyVersion', `arn:aws:iam::${ACCOUNT}:policy/${boundaryName('dev')}`, {}],
    // A resource policy a bad deploy leaves stays when the template later drops it (N5): none ever.
    ['give its table a resource policy', 'dynamodb:PutResourcePolicy', of('dev').table, of('dev').tag],
  ] as const;
  for (const principal of Object.keys(principals)) {
    it.each(escalations)(`${principal} cannot %s`, async (_what, action, resource, context) => {
      expect(await may(principal, action, resource, context)).not.toBe('Allowed');
    });
  }

  // The stack's own roles, by their exact names: no other role, not even another environment's (PlantStore-dev-…
  // is production's prefix), whatever its boundary.
  const ownRoles = (['Function', 'CodeDeploy'] as const).map((role) => roleArn(stackRoleName(dev.name, role)));
  const underBoundary = (environment: Environment) => ({
    'iam:PermissionsBoundary': `arn:aws:iam::${ACCOUNT}:policy/${boundaryName(environment)}`,
  });

  it('lets the execution role attach only the managed policies the stacks use, to its own roles, under the boundary', async () => {
    const managed = (name: string) => ({
      ...underBoundary('dev'),
      'iam:PolicyARN': `arn:aws:iam::aws:policy/service-role/${name}`,
    });
    for (const role of ownRoles) {
      for (const name of ['AWSCodeDeployRoleForLambdaLimited', 'AWSLambdaBasicExecutionRole']) {
        expect(await may('execution role (dev)', 'iam:AttachRolePolicy', role, managed(name))).toBe('Allowed');
      }
      expect(
        await may('execution role (dev)', 'iam:AttachRolePolicy', role, managed('AmazonDynamoDBFullAccess')),
      ).not.toBe('Allowed');
      const unbounded = { 'iam:PolicyARN': managed('AWSLambdaBasicExecutionRole')['iam:PolicyARN'] };
      expect(await may('execution role (dev)', 'iam:AttachRolePolicy', role, unbounded)).not.toBe('Allowed');
    }
    expect(
      await may('execution role (dev)', 'iam:AttachRolePolicy', newRole, managed('AWSLambdaBasicExecutionRole')),
    ).not.toBe('Allowed');
  });

  it("lets the execution role create and manage only its own roles, under its environment's boundary", async () => {
    for (const role of ownRoles) {
      expect(await may('execution role (dev)', 'iam:CreateRole', role, underBoundary('dev'))).toBe('Allowed');
      expect(await may('execution role (dev)', 'iam:PutRolePolicy', role, underBoundary('dev'))).toBe('Allowed');
      expect(await may('execution role (dev)', 'iam:CreateRole', role, underBoundary('production'))).not.toBe(
        'Allowed',
      );
      expect(await may('execution role (dev)', 'iam:PutRolePolicy', role, {})).not.toBe('Allowed');
    }
    // Production's prefix, PlantStore-, is every other environment's: its execution role reaches none of dev's roles.
    for (const role of [...ownRoles, newRole]) {
      expect(await may('execution role (production)', 'iam:PutRolePolicy', role, underBoundary('production'))).not.toBe(
        'Allowed',
      );
      expect(
        await may('execution role (production)', 'iam:UpdateAssumeRolePolicy', role, underBoundary('production')),
      ).not.toBe('Allowed');
    }
  });
});

describe("no role the pipeline reaches can take over a pool's user", () => {
  // Each an Admin* call that hands someone a user's sign-in: a password set or reset, an address
  // changed (then "forgot password"), a user made, a sign-in without the user's password step.
  const takeovers = [
    'cognito-idp:AdminSetUserPassword',
    'cognito-idp:AdminResetUserPassword',
    'cognito-idp:AdminUpdateUserAttributes',
    'cognito-idp:AdminCreateUser',
    'cognito-idp:AdminInitiateAuth',
  ];
  const cases = Object.keys(principals).flatMap((principal) =>
    ENVIRONMENTS.flatMap((environment) => takeovers.map((action) => [principal, action, environment] as const)),
  );
  it.each(cases)('%s cannot call %s on the %s pool', async (principal, action, environment) => {
    const pool = of(environment);
    expect(await may(principal, action, pool.pool, pool.tag)).not.toBe('Allowed');
  });

  it("lets each deploy role read its own smoke user's secret, and no other environment's", async () => {
    for (const environment of ENVIRONMENTS) {
      const role = `GitHub deploy role (${environment})`;
      for (const other of ENVIRONMENTS) {
        const decision = await may(role, 'secretsmanager:GetSecretValue', of(other).smokeSecret, of(other).tag);
        expect({ role, other, decision }).toEqual({
          role,
          other,
          decision: other === environment ? 'Allowed' : 'ImplicitlyDenied',
        });
      }
    }
  });
});

// What AWS names (ids it picks): every call the stacks' resources make is decided, ours and another
// workload's, in calls.test.ts; here, the review's cases by name for every principal of dev's path.
const otherApi = `arn:aws:apigateway:${REGION}::/apis/z9y8x7w6v5`;
const pool = (id: string) => `arn:aws:cognito-idp:${REGION}:${ACCOUNT}:userpool/${REGION}_${id}`;
/**
 * Each option's review cases (its calls.json's `othersRefused`): on another workload's resource of the type, and
 * on one named as production's stack names its own (were it untagged).
 */
const optionCases = [...callSources().types.values()].flatMap(({ type, arn = '', othersRefused = [] }) => {
  const named = (prefix: string) =>
    arn.replace(
      /\$\{(\w+)\}/g,
      (_, name: string) => ({ Partition: 'aws', Account: ACCOUNT, Region: REGION })[name] ?? `${prefix}${name}`,
    );
  return othersRefused.flatMap((action) => [
    [`${action.split(':')[1]} a ${type}`, action, named('Other')] as const,
    [
      `${action.split(':')[1]} production’s untagged ${type}`,
      action,
      named(`${defaultStackName('production')}-`),
    ] as const,
  ]);
});

describe("what AWS names: never another workload's untagged", () => {
  // The review's cases, by name: another workload's untagged secret, pool and HTTP API, and each option's
  // tagged types, with every principal of dev's path.
  const named = [
    ['read a secret', 'secretsmanager:GetSecretValue', secretArn('other-workload')],
    ['open a secret to another account', 'secretsmanager:PutResourcePolicy', secretArn('other-workload')],
    ['add a client to a pool', 'cognito-idp:CreateUserPoolClient', pool('Other')],
    ['add an identity provider to a pool', 'cognito-idp:CreateIdentityProvider', pool('Other')],
    ['change a pool’s identity provider', 'cognito-idp:UpdateIdentityProvider', pool('Other')],
    ['tag a pool as its own', 'cognito-idp:TagResource', pool('Other')],
    ['delete an HTTP API', 'apigateway:DELETE', otherApi],
    ['add a route to an HTTP API', 'apigateway:POST', `${otherApi}/routes`],
    ...optionCases,
  ] as const;
  const devPrincipals = ['GitHub deploy role (dev)', 'execution role (dev)', 'any role a dev stack creates'];
  it.each(
    devPrincipals.flatMap((principal) => named.map(([what, action, resource]) => [principal, what, action, resource])),
  )("%s cannot %s of another workload's (untagged)", async (principal, _what, action, resource) => {
    const tagging = { [`aws:RequestTag/${ENVIRONMENT_TAG}`]: 'dev' };
    expect(await may(principal, action, resource)).not.toBe('Allowed');
    expect(await may(principal, action, resource, tagging)).not.toBe('Allowed');
  });
});
