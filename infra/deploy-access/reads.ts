// What the post-deploy check may read with a deploy role: each call, its IAM action, its resources.

import { Aws } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { defaultStackName, ENVIRONMENT_TAG } from '../stack-environment.ts';

/**
 * The post-deploy check's reads beyond DEPLOY_STACK_ACTIONS: each call, its action, and its environment's
 * resources by the names CloudFormation gives them (`<stack>-<logical id>-<suffix>`; the budget's, `<stack>-MonthlyBudget`).
 */
export const POST_DEPLOY_READS = [
  {
    call: 'GetStage',
    action: 'apigateway:GET',
    resource: () => `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::/apis/*/stages/*`,
  },
  {
    call: 'GetFunctionUrlConfig',
    action: 'lambda:GetFunctionUrlConfig',
    resource: (prefix: string) => `arn:${Aws.PARTITION}:lambda:${Aws.REGION}:${Aws.ACCOUNT_ID}:function:${prefix}-*`,
  },
  {
    call: 'GetFunctionConcurrency',
    action: 'lambda:GetFunctionConcurrency',
    resource: (prefix: string) => `arn:${Aws.PARTITION}:lambda:${Aws.REGION}:${Aws.ACCOUNT_ID}:function:${prefix}-*`,
  },
  {
    call: 'DescribeTable',
    action: 'dynamodb:DescribeTable',
    resource: (prefix: string) => `arn:${Aws.PARTITION}:dynamodb:${Aws.REGION}:${Aws.ACCOUNT_ID}:table/${prefix}-*`,
  },
  {
    call: 'DescribeAlarms',
    action: 'cloudwatch:DescribeAlarms',
    resource: (prefix: string) => `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${prefix}-*`,
  },
  {
    call: 'GetDeploymentGroup',
    action: 'codedeploy:GetDeploymentGroup',
    resource: (prefix: string) =>
      `arn:${Aws.PARTITION}:codedeploy:${Aws.REGION}:${Aws.ACCOUNT_ID}:deploymentgroup:${prefix}-*/*`,
  },
  {
    call: 'DescribeBudget',
    action: 'budgets:ViewBudget',
    // The budget is named for its stack (infra/budget/budget.ts).
    resource: (prefix: string) => `arn:${Aws.PARTITION}:budgets::${Aws.ACCOUNT_ID}:budget/${prefix}-MonthlyBudget`,
  },
];

/** One statement per read, on the environment's resources; the HTTP API's id is AWS's, fenced by the tag. */
export const postDeployReadStatements = (environment: string) =>
  POST_DEPLOY_READS.map(
    ({ action, resource }, index) =>
      new PolicyStatement({
        sid: `PostDeployRead${index}`,
        actions: [action],
        resources: [resource(defaultStackName(environment))],
        ...(action === 'apigateway:GET' && {
          conditions: { StringEquals: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environment } },
        }),
      }),
  );
