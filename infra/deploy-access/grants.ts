// What a deploy role may do, for one environment, and cdk-nag's acknowledgements of it.

import { Aws, Validations } from 'aws-cdk-lib';
import { type ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { OPTIONS } from '../options.ts';
import { defaultStackName } from '../stack-environment.ts';
import { qualifierOf } from './bootstrap/policies.ts';
import { DRIFT_STACK_ACTIONS, driftStatements } from './reads.ts';

/** What the smoke check's token needs (deployed/smoke-user.ts): its secret; InitiateAuth needs no IAM permission. */
export const SMOKE_SECRET_ACTIONS = ['secretsmanager:GetSecretValue'];

/** What `cdk deploy` does with a deploy role's own credentials once it cannot take the bootstrap roles. */
export const DEPLOY_STACK_ACTIONS = [
  'cloudformation:CreateChangeSet',
  'cloudformation:DescribeChangeSet',
  'cloudformation:ExecuteChangeSet',
  'cloudformation:DeleteChangeSet',
  'cloudformation:DescribeStacks',
  'cloudformation:DescribeStackEvents',
  'cloudformation:GetTemplate',
  'cloudformation:GetTemplateSummary',
  'cloudformation:ListStackResources',
  'cloudformation:DescribeStackResources',
];

// IAM5 acknowledgements name the resource as cdk-nag renders it.
const ack = (resource: string, reason: string) => ({
  id: `AwsSolutions-IAM5[Resource::${resource.replace(/\$\{Token\[AWS\.(\w+)\.\d+\]\}/g, '<AWS::$1>')}]`,
  reason,
});

/** Each wildcard action and resource of a policy, acknowledged with one reason (IAM5 names each). */
export function acknowledgeWildcards(policy: ManagedPolicy, reason: string): void {
  const { Statement } = policy.document.toJSON() as { Statement: { Action?: unknown; Resource?: unknown }[] };
  const wildcards = (value: unknown) =>
    [value].flat().filter((each): each is string => typeof each === 'string' && each.includes('*'));
  const findings = Statement.flatMap((statement) => [
    ...wildcards(statement.Action).map((action) => ({ id: `AwsSolutions-IAM5[Action::${action}]`, reason })),
    ...wildcards(statement.Resource).map((resource) => ack(resource, reason)),
  ]);
  Validations.of(policy).acknowledge(...findings);
}

/** The stacks the options may stand beside an environment's. */
const BESIDE_STACKS = OPTIONS.flatMap(({ besideStacks }) => besideStacks ?? []);
/** The Regions a deploy role works in: the stack's own, and those of the stacks beside it. */
const inRegions = <T>(each: (region: string) => T) =>
  [Aws.REGION, ...new Set(BESIDE_STACKS.map(({ region }) => region))].map(each);

/** An environment's stack (PlantStore, PlantStore-<env>) and those the options may add beside it: name, Region. */
const stacksOf = (environment: string) => [
  [defaultStackName(environment), Aws.REGION],
  ...BESIDE_STACKS.map(({ suffix, region }) => [`${defaultStackName(environment)}${suffix}`, region]),
];

export const stackArnsOf = (environment: string) =>
  stacksOf(environment).map(
    ([name, region]) => `arn:${Aws.PARTITION}:cloudformation:${region}:${Aws.ACCOUNT_ID}:stack/${name}/*`,
  );

export const stackAcknowledgements = (environment: string, what: string) =>
  stackArnsOf(environment).map((arn) =>
    ack(arn, `A stack ARN ends in its id, which changes on re-creation; this is the ${environment} stack's, ${what}.`),
  );

/**
 * The deploy role's statements for `environment`, in this Region and those of the stacks beside it;
 * `smokeSecretArn`: its smoke user's secret, the one secret it may read.
 */
export function deployGrants(environment: string, smokeSecretArn: string) {
  const qualifier = qualifierOf(environment);
  const drift = driftStatements(
    environment,
    stacksOf(environment).map(([name]) => name ?? ''),
  );
  const bucket = (region: string) => `arn:${Aws.PARTITION}:s3:::cdk-${qualifier}-assets-${Aws.ACCOUNT_ID}-${region}`;
  const statements = [
    new PolicyStatement({
      sid: 'DeployOwnStacks',
      actions: [...DEPLOY_STACK_ACTIONS, ...DRIFT_STACK_ACTIONS],
      resources: stackArnsOf(environment),
    }),
    new PolicyStatement({
      sid: 'PassOwnExecutionRole',
      actions: ['iam:PassRole'],
      resources: inRegions(
        (region) =>
          `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${qualifier}-cfn-exec-role-${Aws.ACCOUNT_ID}-${region}`,
      ),
      conditions: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
    }),
    // npm run preflight: IAM's policy simulator on its own execution role, before anything is created.
    new PolicyStatement({
      sid: 'PreflightOwnExecutionRole',
      actions: ['iam:SimulatePrincipalPolicy'],
      resources: inRegions(
        (region) =>
          `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${qualifier}-cfn-exec-role-${Aws.ACCOUNT_ID}-${region}`,
      ),
    }),
    new PolicyStatement({
      sid: 'PublishOwnAssets',
      actions: ['s3:GetObject', 's3:PutObject', 's3:GetBucketLocation', 's3:ListBucket'],
      resources: [...inRegions(bucket), ...inRegions((region) => `${bucket(region)}/*`)],
    }),
    new PolicyStatement({
      sid: 'ReadOwnBootstrapVersion',
      actions: ['ssm:GetParameter', 'ssm:GetParameters'],
      resources: inRegions(
        (region) => `arn:${Aws.PARTITION}:ssm:${region}:${Aws.ACCOUNT_ID}:parameter/cdk-bootstrap/${qualifier}/version`,
      ),
    }),
    // No Admin* call on the pool (AdminSetUserPassword cannot be narrowed to one user): the smoke
    // user's password is read from this one secret, and the sign-in is the app client's public one.
    new PolicyStatement({ sid: 'ReadOwnSmokeSecret', actions: SMOKE_SECRET_ACTIONS, resources: [smokeSecretArn] }),
    ...drift.map(({ statement }) => statement),
  ];
  const driftAcknowledgements = drift.flatMap(({ statement, reason }) =>
    statement.resources.filter((resource) => resource.includes('*')).map((resource) => ack(resource, reason)),
  );
  const acknowledgements = [
    ...driftAcknowledgements,
    ...stackAcknowledgements(environment, 'deployed through change sets only, and drift-detected after'),
    ...inRegions((region) =>
      ack(
        `${bucket(region)}/*`,
        `Asset objects are named by their content hash; this is the ${environment} bootstrap's own bucket.`,
      ),
    ),
  ];
  return { statements, acknowledgements };
}
