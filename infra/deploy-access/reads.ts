// What `npm run check:deployed` needs of a deploy role: CloudFormation drift detection on its own stacks,
// and the reads drift detection makes with the caller's own credentials, on its own resources.

import { Aws } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { ENVIRONMENT_TAG } from '../stack-environment.ts';
import { callSources } from './call-sources.ts';

/** On the environment's own stacks (AWS: "Detect drift on an entire CloudFormation stack"), and its result. */
export const DRIFT_STACK_ACTIONS = [
  'cloudformation:DetectStackDrift',
  'cloudformation:DetectStackResourceDrift',
  'cloudformation:DescribeStackResourceDrifts',
];

/**
 * Each resource type's reads, with the caller's credentials: its CloudFormation resource schema's read handler
 * (`aws cloudformation describe-type --type RESOURCE --type-name TYPE --query Schema`), but KMS (no key of ours)
 * and the API's `s3:GetObject` (for a definition imported from S3). A type drift detection cannot check has none.
 * An option's types come from its calls.json (`driftReads`).
 */
const OPTION_TYPES = [...callSources().types.values()].filter(({ driftReads }) => driftReads);
export const DRIFT_READS: Record<string, readonly string[]> = {
  ...Object.fromEntries(OPTION_TYPES.map(({ type, driftReads }) => [type, driftReads ?? []])),
  'AWS::ApiGatewayV2::Api': ['apigateway:GET'],
  'AWS::ApiGatewayV2::ApiMapping': ['apigateway:GET'],
  'AWS::ApiGatewayV2::Authorizer': ['apigateway:GET'],
  'AWS::ApiGatewayV2::DomainName': ['apigateway:GET'],
  'AWS::ApiGatewayV2::Integration': ['apigateway:GET'],
  'AWS::ApiGatewayV2::Route': ['apigateway:GET'],
  'AWS::ApiGatewayV2::Stage': ['apigateway:GET'],
  'AWS::CloudWatch::Alarm': ['cloudwatch:DescribeAlarms', 'cloudwatch:ListTagsForResource'],
  'AWS::CloudWatch::Dashboard': ['cloudwatch:GetDashboard', 'cloudwatch:ListTagsForResource'],
  'AWS::CodeDeploy::Application': ['codedeploy:GetApplication', 'codedeploy:ListTagsForResource'],
  'AWS::CodeDeploy::DeploymentGroup': [
    'codedeploy:GetDeploymentGroup',
    'codedeploy:ListTagsForResource',
    'codedeploy:ListDeployments',
    'codedeploy:GetDeployment',
  ],
  'AWS::Cognito::UserPool': ['cognito-idp:DescribeUserPool', 'cognito-idp:GetUserPoolMfaConfig'],
  'AWS::Cognito::UserPoolClient': ['cognito-idp:DescribeUserPoolClient'],
  'AWS::Cognito::UserPoolDomain': ['cognito-idp:DescribeUserPoolDomain'],
  'AWS::Cognito::UserPoolResourceServer': ['cognito-idp:DescribeResourceServer'],
  'AWS::DynamoDB::Table': [
    'dynamodb:DescribeTable',
    'dynamodb:DescribeContinuousBackups',
    'dynamodb:DescribeContributorInsights',
    'dynamodb:DescribeKinesisStreamingDestination',
    'dynamodb:ListTagsOfResource',
    'dynamodb:GetResourcePolicy',
    'dynamodb:DescribeTimeToLive',
  ],
  'AWS::IAM::Role': ['iam:GetRole', 'iam:ListAttachedRolePolicies', 'iam:ListRolePolicies', 'iam:GetRolePolicy'],
  'AWS::Lambda::Alias': ['lambda:GetAlias', 'lambda:GetProvisionedConcurrencyConfig'],
  'AWS::Lambda::Function': [
    'lambda:GetFunction',
    'lambda:GetFunctionCodeSigningConfig',
    'lambda:GetFunctionRecursionConfig',
    'lambda:GetRuntimeManagementConfig',
    'lambda:GetFunctionScalingConfig',
  ],
  'AWS::Lambda::Permission': ['lambda:GetPolicy'],
  'AWS::Lambda::Version': [
    'lambda:GetFunctionConfiguration',
    'lambda:GetProvisionedConcurrencyConfig',
    'lambda:GetRuntimeManagementConfig',
    'lambda:GetFunctionScalingConfig',
  ],
  'AWS::Logs::LogGroup': [
    'logs:DescribeLogGroups',
    'logs:ListTagsForResource',
    'logs:GetDataProtectionPolicy',
    'logs:DescribeIndexPolicies',
    'logs:DescribeResourcePolicies',
  ],
  'AWS::SNS::Subscription': ['sns:GetSubscriptionAttributes'],
  'AWS::SNS::Topic': [
    'sns:GetTopicAttributes',
    'sns:ListTagsForResource',
    'sns:ListSubscriptionsByTopic',
    'sns:GetDataProtectionPolicy',
  ],
};

/**
 * Calls IAM scopes to no resource (none in AWS's service authorization reference), and an option's types
 * that take no tag (`driftArns: "*"`): on any resource of the account, read-only.
 */
export const UNSCOPED_READS = [
  'cloudformation:DescribeStackDriftDetectionStatus',
  'cloudformation:BatchDescribeTypeConfigurations',
  'cognito-idp:DescribeUserPoolDomain',
  'logs:DescribeLogGroups',
  'logs:DescribeIndexPolicies',
  'logs:DescribeResourcePolicies',
  ...OPTION_TYPES.filter(({ driftArns }) => driftArns === '*').flatMap(({ driftReads }) => driftReads ?? []),
];

/** Where CloudFormation names resources after their stack (`<stack>-<logical id>-<suffix>`), by service. */
const BY_STACK_NAME: Record<string, (stack: string) => string[]> = {
  lambda: (stack) => [`arn:${Aws.PARTITION}:lambda:*:${Aws.ACCOUNT_ID}:function:${stack}-*`],
  dynamodb: (stack) => [`arn:${Aws.PARTITION}:dynamodb:*:${Aws.ACCOUNT_ID}:table/${stack}-*`],
  cloudwatch: (stack) => [
    `arn:${Aws.PARTITION}:cloudwatch:*:${Aws.ACCOUNT_ID}:alarm:${stack}-*`,
    `arn:${Aws.PARTITION}:cloudwatch::${Aws.ACCOUNT_ID}:dashboard/${stack}-*`,
  ],
  codedeploy: (stack) => [
    `arn:${Aws.PARTITION}:codedeploy:*:${Aws.ACCOUNT_ID}:application:${stack}-*`,
    `arn:${Aws.PARTITION}:codedeploy:*:${Aws.ACCOUNT_ID}:deploymentgroup:${stack}-*`,
  ],
  iam: (stack) => [`arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/${stack}-*`],
  logs: (stack) => [
    `arn:${Aws.PARTITION}:logs:*:${Aws.ACCOUNT_ID}:log-group:${stack}-*`,
    `arn:${Aws.PARTITION}:logs:*:${Aws.ACCOUNT_ID}:log-group:/aws/lambda/${stack}-*`,
  ],
  sns: (stack) => [`arn:${Aws.PARTITION}:sns:*:${Aws.ACCOUNT_ID}:${stack}-*`],
};

/** Where AWS picks the ids: any, fenced by the environment's tag (as the execution policy's own); an option's `driftArns`. */
const BY_TAG: Record<string, string[]> = {
  apigateway: [`arn:${Aws.PARTITION}:apigateway:*::/apis/*`, `arn:${Aws.PARTITION}:apigateway:*::/domainnames/*`],
  'cognito-idp': [`arn:${Aws.PARTITION}:cognito-idp:*:${Aws.ACCOUNT_ID}:userpool/*`],
};
for (const { driftReads, driftArns } of OPTION_TYPES) {
  if (!Array.isArray(driftArns)) continue;
  const arns = driftArns.map((arn) =>
    arn.replace(/\$\{Partition\}/, Aws.PARTITION).replace(/\$\{AccountId\}/, Aws.ACCOUNT_ID),
  );
  for (const service of new Set((driftReads ?? []).map((action) => action.split(':')[0] ?? ''))) {
    BY_TAG[service] = [...new Set([...(BY_TAG[service] ?? []), ...arns])];
  }
}

/** Drift detection's reads for `environment`, whose stacks are `stackNames`, each with why its wildcards are. */
export function driftStatements(environment: string, stackNames: string[]) {
  const reads = [...new Set(Object.values(DRIFT_READS).flat())].filter((action) => !UNSCOPED_READS.includes(action));
  const inServices = (services: object) =>
    reads.filter((action) => Object.keys(services).includes(action.split(':')[0] ?? '')).sort();
  return [
    {
      statement: new PolicyStatement({ sid: 'DriftReadsUnscoped', actions: UNSCOPED_READS, resources: ['*'] }),
      reason:
        'Read-only calls IAM cannot scope to a resource (no resource type in the service authorization reference), and resources that take no tag.',
    },
    {
      statement: new PolicyStatement({
        sid: 'DriftReadsOwnByName',
        actions: inServices(BY_STACK_NAME),
        resources: stackNames.flatMap((stack) => Object.values(BY_STACK_NAME).flatMap((arns) => arns(stack))),
      }),
      reason: `Read-only, for drift detection: CloudFormation names each resource after the ${environment} stack that made it, with a suffix it picks.`,
    },
    {
      statement: new PolicyStatement({
        sid: 'DriftReadsOwnByTag',
        actions: inServices(BY_TAG),
        resources: Object.values(BY_TAG).flat(),
        conditions: { StringEquals: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environment } },
      }),
      reason: `Read-only, for drift detection: ids AWS picks, fenced by the ${environment} environment's tag.`,
    },
  ];
}
