// What the pipeline's roles may do in one account, decided by an IAM evaluator over the synthesized
// access stack, the shipped execution policy and boundary (infra/deploy-access/bootstrap/), and the CDK bootstrap
// template's roles: no role the pipeline reaches is an administrator, and dev's path reaches none of
// production's stack, table, users, execution role or assets.

import { describe, expect, it } from '@jest/globals';
import {
  boundaryName,
  qualifierOf,
  renderPolicy,
  smokeSecretName,
} from '../../../infra/deploy-access/bootstrap/policies.ts';
import { defaultStackName, ENVIRONMENT_TAG } from '../../../infra/stack-environment.ts';
import { synthAccess } from '../../helpers/access-stack.ts';
import { bootstrapRole } from '../../helpers/bootstrap-template.ts';
import { synth } from '../../helpers/cdk.ts';
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
        identity: [renderPolicy('execution-policy', environment, where)],
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

  it('lets the execution role attach only the managed policies the stacks use, to their own roles', async () => {
    const managed = (name: string) => ({ 'iam:PolicyARN': `arn:aws:iam::aws:policy/service-role/${name}` });
    for (const role of [newRole, roleArn('PlantStore-devEdgeWaf-Reader-ABC')]) {
      for (const name of ['AWSCodeDeployRoleForLambdaLimited', 'AWSLambdaBasicExecutionRole']) {
        expect(await may('execution role (dev)', 'iam:AttachRolePolicy', role, managed(name))).toBe('Allowed');
      }
    }
    const production = roleArn('PlantStore-Escalate-ABC');
    expect(
      await may('execution role (dev)', 'iam:AttachRolePolicy', production, managed('AWSLambdaBasicExecutionRole')),
    ).not.toBe('Allowed');
    expect(
      await may('execution role (dev)', 'iam:AttachRolePolicy', newRole, managed('AmazonDynamoDBFullAccess')),
    ).not.toBe('Allowed');
  });

  it("lets the execution role create a role only under its environment's boundary", async () => {
    const boundary = { 'iam:PermissionsBoundary': `arn:aws:iam::${ACCOUNT}:policy/${boundaryName('dev')}` };
    expect(await may('execution role (dev)', 'iam:CreateRole', newRole, boundary)).toBe('Allowed');
    const other = { 'iam:PermissionsBoundary': `arn:aws:iam::${ACCOUNT}:policy/${boundaryName('production')}` };
    expect(await may('execution role (dev)', 'iam:CreateRole', newRole, other)).not.toBe('Allowed');
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

// What AWS names (ids it picks): each resource type the stack deploys, with every option on, as the
// execution role's CloudFormation calls make and manage it. Created only with the environment's tag,
// managed only while it carries it; the same calls on another workload's untagged resource refused.
const AWS_NAMED = /^AWS::(ApiGatewayV2|Cognito|CloudFront|WAFv2|Budgets|SecretsManager)::/;
const api = `arn:aws:apigateway:${REGION}::/apis/a1b2c3d4e5`;
const otherApi = `arn:aws:apigateway:${REGION}::/apis/z9y8x7w6v5`;
const domain = `arn:aws:apigateway:${REGION}::/domainnames/api.example.com`;
const otherDomain = `arn:aws:apigateway:${REGION}::/domainnames/api.other.example`;
const pool = (id: string) => `arn:aws:cognito-idp:${REGION}:${ACCOUNT}:userpool/${REGION}_${id}`;
const webAcl = (name: string) => `arn:aws:wafv2:us-east-1:${ACCOUNT}:global/webacl/${name}/0a1b2c3d-4e5f`;
/** Each type's calls: [action, our resource, another workload's], `undefined` for a create of one not yet made. */
const CALLS: Record<string, [string, string | undefined, string][]> = {
  'AWS::ApiGatewayV2::Api': [
    ['apigateway:POST', `arn:aws:apigateway:${REGION}::/apis`, `arn:aws:apigateway:${REGION}::/apis`],
    ['apigateway:DELETE', api, otherApi],
  ],
  'AWS::ApiGatewayV2::Route': [['apigateway:POST', `${api}/routes`, `${otherApi}/routes`]],
  'AWS::ApiGatewayV2::Integration': [['apigateway:POST', `${api}/integrations`, `${otherApi}/integrations`]],
  'AWS::ApiGatewayV2::Stage': [['apigateway:DELETE', `${api}/stages/$default`, `${otherApi}/stages/$default`]],
  'AWS::ApiGatewayV2::Authorizer': [['apigateway:DELETE', `${api}/authorizers/abc`, `${otherApi}/authorizers/abc`]],
  'AWS::ApiGatewayV2::DomainName': [
    ['apigateway:POST', `arn:aws:apigateway:${REGION}::/domainnames`, `arn:aws:apigateway:${REGION}::/domainnames`],
    ['apigateway:DELETE', domain, otherDomain],
  ],
  'AWS::ApiGatewayV2::ApiMapping': [['apigateway:POST', `${domain}/apimappings`, `${otherDomain}/apimappings`]],
  'AWS::Cognito::UserPool': [
    ['cognito-idp:CreateUserPool', undefined, '*'],
    ['cognito-idp:UpdateUserPool', pool('Own'), pool('Other')],
  ],
  'AWS::Cognito::UserPoolClient': [
    ['cognito-idp:CreateUserPoolClient', pool('Own'), pool('Other')],
    ['cognito-idp:UpdateUserPoolClient', pool('Own'), pool('Other')],
  ],
  'AWS::Cognito::UserPoolDomain': [['cognito-idp:CreateUserPoolDomain', pool('Own'), pool('Other')]],
  'AWS::Cognito::UserPoolResourceServer': [['cognito-idp:CreateResourceServer', pool('Own'), pool('Other')]],
  'AWS::CloudFront::Distribution': [
    ['cloudfront:CreateDistribution', undefined, '*'],
    [
      'cloudfront:UpdateDistribution',
      `arn:aws:cloudfront::${ACCOUNT}:distribution/EOWN`,
      `arn:aws:cloudfront::${ACCOUNT}:distribution/EOTHER`,
    ],
  ],
  'AWS::CloudFront::Function': [
    ['cloudfront:CreateFunction', undefined, '*'],
    [
      'cloudfront:UpdateFunction',
      `arn:aws:cloudfront::${ACCOUNT}:function/own`,
      `arn:aws:cloudfront::${ACCOUNT}:function/other`,
    ],
  ],
  'AWS::WAFv2::WebACL': [
    ['wafv2:CreateWebACL', undefined, webAcl('Other')],
    ['wafv2:UpdateWebACL', webAcl('Own'), webAcl('Other')],
  ],
};
/** Types with nothing IAM can fence by tag, each with why that is safe enough (docs/pipeline.md says so too). */
const UNTAGGABLE: Record<string, { calls: [string, string][]; why: string }> = {
  'AWS::CloudFront::OriginAccessControl': {
    calls: [['cloudfront:UpdateOriginAccessControl', `arn:aws:cloudfront::${ACCOUNT}:origin-access-control/E1`]],
    why: 'no tags: changing another distribution’s signing only makes its origin refuse it (fails closed)',
  },
  'AWS::Budgets::Budget': {
    calls: [['budgets:ModifyBudget', `arn:aws:budgets::${ACCOUNT}:budget/Other`]],
    why: 'the stack sets no tag on it: another budget’s alerts, no data or spend',
  },
};

const edgeRegion = { account: ACCOUNT, region: 'us-east-1' };
const everyOption = {
  env: 'dev',
  authRequiredScope: 'plants/read',
  monthlyBudgetUsd: '10',
  alarmEmail: 'a@example.com',
};
const withEdge = (await synth({ ...everyOption, edge: 'true' }, { env: edgeRegion })).template;
const withApi = (
  await synth({
    ...everyOption,
    jwtAuthorizer: 'true',
    domainName: 'api.example.com',
    certificateArn: `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/abc`,
  })
).template;
const types = [
  ...new Set(
    [withEdge, withApi].flatMap((template) =>
      Object.values(template.toJSON().Resources as Record<string, { Type: string }>).map(({ Type }) => Type),
    ),
  ),
].filter((type) => AWS_NAMED.test(type));

describe("the execution role on what AWS names: its environment's own, never another workload's untagged", () => {
  it('knows every such type the stack deploys', () => {
    expect(types.length).toBeGreaterThan(0);
    expect(types.filter((type) => !CALLS[type] && !UNTAGGABLE[type])).toEqual([]);
  });

  const own = (environment: Environment, resource: string | undefined) =>
    resource === undefined
      ? { resource: '*', context: { [`aws:RequestTag/${ENVIRONMENT_TAG}`]: environment } }
      : resource.endsWith('/apis') || resource.endsWith('/domainnames')
        ? { resource, context: { [`aws:RequestTag/${ENVIRONMENT_TAG}`]: environment } }
        : { resource, context: of(environment).tag };
  const cases = ENVIRONMENTS.flatMap((environment) =>
    Object.entries(CALLS).flatMap(([type, calls]) =>
      calls.map(([action, ours, theirs]) => ({ environment, type, action, ours, theirs })),
    ),
  );

  it.each(cases)(
    "$environment's execution role may $action for its own $type",
    async ({ environment, action, ours }) => {
      const { resource, context } = own(environment, ours);
      expect(await may(`execution role (${environment})`, action, resource, context)).toBe('Allowed');
    },
  );

  it.each(cases)(
    "$environment's execution role may not $action on another workload's untagged $type, nor tag it its own",
    async ({ environment, action, ours, theirs }) => {
      expect(await may(`execution role (${environment})`, action, theirs)).not.toBe('Allowed');
      // A request tag is a create's condition (a create makes a new one): on an existing resource it reaches nothing.
      if (ours === undefined || /\/(apis|domainnames)$/.test(theirs)) return;
      const tagging = { [`aws:RequestTag/${ENVIRONMENT_TAG}`]: environment };
      expect(await may(`execution role (${environment})`, action, theirs, tagging)).not.toBe('Allowed');
    },
  );

  it.each(Object.entries(UNTAGGABLE))('leaves %s to its name alone: %s', async (_type, { calls }) => {
    for (const [action, resource] of calls) {
      expect(await may('execution role (dev)', action, resource)).toBe('Allowed');
    }
  });

  // The review's cases, by name: another workload's untagged secret, pool, HTTP API and web ACL
  // (production's EdgeWaf ACL among them, were it untagged), with every principal of dev's path.
  const named = [
    ['read a secret', 'secretsmanager:GetSecretValue', secretArn('other-workload')],
    ['open a secret to another account', 'secretsmanager:PutResourcePolicy', secretArn('other-workload')],
    ['add a client to a pool', 'cognito-idp:CreateUserPoolClient', pool('Other')],
    ['add an identity provider to a pool', 'cognito-idp:CreateIdentityProvider', pool('Other')],
    ['change a pool’s identity provider', 'cognito-idp:UpdateIdentityProvider', pool('Other')],
    ['tag a pool as its own', 'cognito-idp:TagResource', pool('Other')],
    ['delete an HTTP API', 'apigateway:DELETE', otherApi],
    ['add a route to an HTTP API', 'apigateway:POST', `${otherApi}/routes`],
    ['change a web ACL', 'wafv2:UpdateWebACL', webAcl('Other')],
    ['tag a web ACL as its own', 'wafv2:TagResource', webAcl('Other')],
    ['delete production’s untagged EdgeWaf web ACL', 'wafv2:DeleteWebACL', webAcl('PlantStoreEdgeWaf-WebAcl')],
    ['change production’s untagged EdgeWaf web ACL', 'wafv2:UpdateWebACL', webAcl('PlantStoreEdgeWaf-WebAcl')],
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
