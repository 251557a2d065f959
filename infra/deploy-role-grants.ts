// What a deploy role may do, for one environment: deploy that environment's stacks itself (change
// sets, its own execution role, its own asset bucket and bootstrap version) and make the smoke
// check's user in that environment's pool. cdk-nag's acknowledgements of it live here too.

import { Aws, Validations } from 'aws-cdk-lib';
import { type ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { qualifierOf } from './bootstrap/policies.ts';
import { EDGE_WAF_REGION } from './edge/waf.ts';
import { defaultStackName, ENVIRONMENT_TAG } from './stack-environment.ts';

/** The Cognito calls of the smoke check's token (deployed/cognito.ts); InitiateAuth needs no IAM permission. */
export const SMOKE_COGNITO_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminSetUserPassword',
];

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

/** An environment's stack (PlantStore, PlantStore-<env>) and its edge's web ACL stack in us-east-1. */
export const stackArnsOf = (environment: string) =>
  [
    [defaultStackName(environment), Aws.REGION],
    [`${defaultStackName(environment)}EdgeWaf`, EDGE_WAF_REGION],
  ].map(([name, region]) => `arn:${Aws.PARTITION}:cloudformation:${region}:${Aws.ACCOUNT_ID}:stack/${name}/*`);

export const stackAcknowledgements = (environment: string, what: string) =>
  stackArnsOf(environment).map((arn) =>
    ack(arn, `A stack ARN ends in its id, which changes on re-creation; this is the ${environment} stack's, ${what}.`),
  );

/** The deploy role's statements for `environment`, in this Region and us-east-1 (the edge's web ACL). */
export function deployGrants(environment: string) {
  const qualifier = qualifierOf(environment);
  const inRegions = <T>(each: (region: string) => T) => [Aws.REGION, EDGE_WAF_REGION].map(each);
  const bucket = (region: string) => `arn:${Aws.PARTITION}:s3:::cdk-${qualifier}-assets-${Aws.ACCOUNT_ID}-${region}`;
  // A user pool's id is known only once its stack is deployed, and changes if it is ever replaced:
  // each environment's resources carry its name as a tag instead (infra/plant-store-stack.ts).
  const pools = `arn:${Aws.PARTITION}:cognito-idp:${Aws.REGION}:${Aws.ACCOUNT_ID}:userpool/*`;
  const statements = [
    new PolicyStatement({ sid: 'DeployOwnStacks', actions: DEPLOY_STACK_ACTIONS, resources: stackArnsOf(environment) }),
    new PolicyStatement({
      sid: 'PassOwnExecutionRole',
      actions: ['iam:PassRole'],
      resources: inRegions(
        (region) =>
          `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${qualifier}-cfn-exec-role-${Aws.ACCOUNT_ID}-${region}`,
      ),
      conditions: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
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
    new PolicyStatement({
      sid: 'SmokeUserInEnvironmentPool',
      actions: SMOKE_COGNITO_ACTIONS,
      resources: [pools],
      conditions: { StringEquals: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environment } },
    }),
  ];
  const acknowledgements = [
    ...stackAcknowledgements(environment, 'deployed through change sets only'),
    ...inRegions((region) =>
      ack(
        `${bucket(region)}/*`,
        `Asset objects are named by their content hash; this is the ${environment} bootstrap's own bucket.`,
      ),
    ),
    ack(
      pools,
      `Pool ids exist only after deploy and change on replacement; the statement is limited to pools tagged ${ENVIRONMENT_TAG}=${environment}, and to the three calls the smoke user needs.`,
    ),
  ];
  return { statements, acknowledgements };
}
