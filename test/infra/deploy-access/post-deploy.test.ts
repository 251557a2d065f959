// The post-deploy check's reads, decided by the IAM evaluator over the synthesized deploy roles: each
// role may make every call the check makes (deployed/live-check.ts) on its own stack's resources,
// named as CloudFormation names them, and dev's role none of them on production's.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { POST_DEPLOY_READS } from '../../../infra/deploy-access/reads.ts';
import { defaultStackName, ENVIRONMENT_TAG } from '../../../infra/stack-environment.ts';
import { synthAccess } from '../../helpers/access-stack.ts';
import { ACCOUNT, decide, REGION, resolveIn, roleArn } from '../../helpers/iam.ts';

const { template } = await synthAccess({ githubRepository: 'octo-org/plant-store', githubRepositoryId: '2002' });
const ENVIRONMENTS = ['dev', 'production'] as const;
type Environment = (typeof ENVIRONMENTS)[number];

const identityOf = (environment: Environment) =>
  Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith(`DeployRole${environment === 'dev' ? 'Dev' : 'Production'}`))
    .map(([, policy], index) => ({
      name: `policy${index}`,
      policy: resolveIn(template, policy.Properties.PolicyDocument),
    }));

/** The resource each read is made on, in `environment`'s stack, as CloudFormation names it. */
const resourceOf = (action: string, environment: Environment) => {
  const name = (logicalId: string) => `${defaultStackName(environment)}-${logicalId}-1A2B3C4D`;
  const arns: Record<string, string> = {
    'apigateway:GET': `arn:aws:apigateway:${REGION}::/apis/a1b2c3d4e5/stages/$default`,
    'lambda:GetFunctionUrlConfig': `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name('ListPlantsFunction')}`,
    'lambda:GetFunctionConcurrency': `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name('ListPlantsFunction')}`,
    'dynamodb:DescribeTable': `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name('PlantsTable')}`,
    'cloudwatch:DescribeAlarms': `arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:${name('MonitoringFunctionErrors')}`,
    'codedeploy:GetDeploymentGroup': `arn:aws:codedeploy:${REGION}:${ACCOUNT}:deploymentgroup:${name('DeliveryApplication')}/${name('DeliveryDeploymentGroup')}`,
    'budgets:ViewBudget': `arn:aws:budgets::${ACCOUNT}:budget/${defaultStackName(environment)}-MonthlyBudget`,
  };
  const arn = arns[action];
  if (!arn) throw new Error(`no resource for ${action}`);
  return arn;
};

async function may(role: Environment, action: string, environment: Environment) {
  const { decision } = await decide({
    request: {
      principal: roleArn(`DeployRole-${role}`),
      action,
      resource: { resource: resourceOf(action, environment), accountId: ACCOUNT },
      contextVariables: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environment },
    },
    identityPolicies: identityOf(role),
  });
  return decision;
}

describe("the post-deploy check's reads", () => {
  it('grant exactly the calls the check makes', () => {
    const source = readFileSync(new URL('../../../deployed/live-check.ts', import.meta.url), 'utf8');
    const calls = [...new Set([...source.matchAll(/new (\w+)Command\(/g)].map(([, name]) => name))];
    expect(calls.sort()).toEqual(POST_DEPLOY_READS.map(({ call }) => call).sort());
  });

  // The evaluator's data gives API Gateway's stage its REST and HTTP ARN forms as one string, so it
  // cannot place /apis/…/stages/…: it refuses to decide (held here, so the day it can, this fails).
  const UNDECIDABLE = 'apigateway:GET';
  it(`${UNDECIDABLE} is left to the grant's text: the evaluator cannot place an HTTP API stage`, async () => {
    await expect(may('dev', UNDECIDABLE, 'dev')).rejects.toThrow(/no\.resource\.types/);
  });
  const decidable = POST_DEPLOY_READS.filter(({ action }) => action !== UNDECIDABLE);

  const cases = ENVIRONMENTS.flatMap((environment) => decidable.map(({ action }) => [environment, action] as const));
  it.each(cases)("%s's deploy role may %s on its own stack's resource", async (environment, action) => {
    expect(await may(environment, action, environment)).toBe('Allowed');
  });

  const fenced = decidable.map(({ action }) => action);
  it.each(fenced)("dev's deploy role may not %s on production's", async (action) => {
    expect(await may('dev', action, 'production')).not.toBe('Allowed');
  });
});
