// Before CloudFormation creates anything: the account's own policy evaluator (iam:SimulatePrincipalPolicy,
// the role's permissions boundary included) asked whether each stack's execution role may make every call
// its resources make (infra/deploy-access/calls.ts), and what to add where it may not.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ContextEntry,
  type EvaluationResult,
  type IAMClient,
  SimulatePrincipalPolicyCommand,
} from '@aws-sdk/client-iam';
import { type Call, callsOf, type TemplateJson } from '../infra/deploy-access/calls.ts';

type StackToCheck = ReturnType<typeof stacksIn>[number];

/** A call the role may not make, as IAM decided it. */
export type Denial = Awaited<ReturnType<typeof deniedCalls>>[number];

/** The stacks of the cloud assembly in `dir`, as `cdk deploy` would deploy them with this account, and the role CloudFormation will use. */
export function stacksIn(dir: string, account: string, partition: string, defaultRegion: string) {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; environment?: string; properties?: Record<string, string> }>;
  };
  return Object.entries(manifest.artifacts)
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
    .map(([id, { environment = '', properties = {} }]) => {
      const named = /^aws:\/\/[^/]+\/([\w-]+)$/.exec(environment)?.[1];
      const region = named && named !== 'unknown-region' ? named : defaultRegion;
      // The manifest's CloudFormation pseudo parameters (`${AWS::AccountId}`…), which cdk deploy fills the same way.
      const pseudo: Record<string, string> = { Partition: partition, AccountId: account, Region: region };
      const fill = (text: string) => text.replace(/\$\{AWS::(\w+)\}/g, (whole, name: string) => pseudo[name] ?? whole);
      const roleArn = properties.cloudFormationExecutionRoleArn;
      if (!roleArn || !properties.templateFile) {
        throw new Error(`${id}: the cloud assembly names no execution role: is it synthesized with the CDK bootstrap?`);
      }
      const template = JSON.parse(readFileSync(join(dir, properties.templateFile), 'utf8')) as TemplateJson;
      return { stackName: properties.stackName ?? id, region, roleArn: fill(roleArn), template };
    });
}

/** Each stack's number of calls and those IAM does not allow its execution role. */
export async function checkStacks(iam: IAMClient, stacks: StackToCheck[], account: string, partition: string) {
  const checked = [];
  for (const stack of stacks) {
    const calls = callsOf(stack.template, { stackName: stack.stackName, region: stack.region, account, partition });
    checked.push({ stack, calls: calls.length, denials: await deniedCalls(iam, stack, calls) });
  }
  return checked;
}

/** Each call of the stack IAM does not allow its execution role; one request per resource and context. */
async function deniedCalls(iam: IAMClient, stack: StackToCheck, calls: Call[]) {
  const groups = new Map<string, Call[]>();
  for (const call of calls) {
    const key = JSON.stringify([call.resource, call.context]);
    groups.set(key, [...(groups.get(key) ?? []), call]);
  }
  const denials = [];
  for (const group of groups.values()) {
    const [{ resource, context }] = group as [Call];
    const actions = [...new Set(group.map(({ action }) => action))];
    for (const result of await simulate(iam, stack.roleArn, actions, resource, context)) {
      if (result.EvalDecision === 'allowed') continue;
      // The statements that denied it explicitly (policy id and position), when one did.
      const deniedBy = (result.MatchedStatements ?? []).map(
        ({ SourcePolicyId, StartPosition }) => `${SourcePolicyId} (line ${StartPosition?.Line ?? '?'})`,
      );
      // False when the role's permissions boundary refuses it.
      const boundary = result.PermissionsBoundaryDecisionDetail?.AllowedByPermissionsBoundary !== false;
      for (const call of group.filter(({ action }) => action.toLowerCase() === result.EvalActionName?.toLowerCase())) {
        denials.push({
          stackName: stack.stackName,
          call,
          decision: result.EvalDecision ?? 'unknown',
          deniedBy,
          boundary,
        });
      }
    }
  }
  return denials;
}

async function simulate(
  iam: IAMClient,
  role: string,
  actions: string[],
  resource: string,
  context: Record<string, string>,
): Promise<EvaluationResult[]> {
  const entries: ContextEntry[] = Object.entries(context).map(([key, value]) => ({
    ContextKeyName: key,
    ContextKeyValues: [value],
    ContextKeyType: 'string',
  }));
  const results: EvaluationResult[] = [];
  let marker: string | undefined;
  do {
    const page = await iam.send(
      new SimulatePrincipalPolicyCommand({
        PolicySourceArn: role,
        ActionNames: actions,
        ResourceArns: [resource],
        ContextEntries: entries,
        MaxItems: 1000,
        Marker: marker,
      }),
    );
    results.push(...(page.EvaluationResults ?? []));
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
  return results;
}

/** The statement that would allow a denied call, fenced by the context the call carries. */
export function statementToAdd({ action, resource, context }: Call): Record<string, unknown> {
  const condition = Object.keys(context).length > 0 ? { Condition: { StringEquals: context } } : {};
  return { Effect: 'Allow', Action: action, Resource: resource, ...condition };
}

/** One line per denial: the stack, the call and what it is for, and what would allow it. */
export function describeDenial({ stackName, call, decision, deniedBy, boundary }: Denial): string {
  const what = `${stackName}: ${call.action} on ${call.resource} (${call.phase} of ${call.type} ${call.logicalId}, ${call.file})`;
  if (deniedBy.length > 0) return `${what}: ${decision} by ${deniedBy.join(', ')}`;
  if (!boundary) return `${what}: refused by the execution role's permissions boundary`;
  return `${what}: ${decision}; add to the execution policy ${JSON.stringify(statementToAdd(call))}`;
}
