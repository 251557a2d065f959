// CloudFormation's calls for a template (infra/deploy-access/calls.ts), decided by the IAM evaluator
// against an environment's execution policy, with the statements that allowed each: the deploy-calls
// test reads the decisions, the preflight's stand-in for IAM answers with them.

import { runSimulation, runUnsafeSimulation } from '@cloud-copilot/iam-simulate';
import {
  annotatedPolicy,
  EXECUTION_POLICY_FILES,
  qualifierOf,
  renderPolicy,
} from '../../infra/deploy-access/bootstrap/policies.ts';
import type { Call } from '../../infra/deploy-access/calls.ts';
import { ACCOUNT, type Decision, type PolicyDocument } from './iam.ts';

/** The bootstrap's CloudFormation execution role of `environment` in `region`, as IAM names it. */
export const executionRoleArn = (environment: string, region: string) =>
  `arn:aws:iam::${ACCOUNT}:role/cdk-${qualifierOf(environment)}-cfn-exec-role-${ACCOUNT}-${region}`;

const where = { accountId: ACCOUNT, partition: 'aws' };
/** The execution role's managed policies as one document: IAM evaluates their statements together. */
export const executionPolicy = (environment: string): PolicyDocument => ({
  Version: '2012-10-17',
  Statement: EXECUTION_POLICY_FILES.flatMap((file) => renderPolicy(file, environment, where).Statement),
});

/** Each statement's Sid with its `Why`, when the file gives one (a grant that reaches beyond the environment). */
export const reasonsOf = (environment: string) =>
  new Map(
    EXECUTION_POLICY_FILES.flatMap((file) =>
      annotatedPolicy(file, environment, where).Statement.map(({ Sid, Why }) => [String(Sid), Why] as const),
    ),
  );

/**
 * The evaluator's decision on one call. Its data cannot place an HTTP API path (its API Gateway actions
 * name REST resource types only) nor tell a Lambda alias from a version (one ARN form): for those alone the
 * decision comes from the run that skips placing, which still applies every statement, condition and deny.
 */
export async function decideCall(call: Call, principal: string, policy: PolicyDocument): Promise<Decision> {
  const simulation = {
    request: {
      principal,
      action: call.action,
      resource: { resource: call.resource, accountId: ACCOUNT },
      contextVariables: call.context,
    },
    identityPolicies: [{ name: 'execution', policy }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
  };
  const result = await runSimulation(simulation, {});
  if (result.resultType !== 'error') return result.overallResult as Decision;
  const reason = JSON.stringify(result.errors);
  const unplaceable =
    (reason === '{"message":"no.resource.types"}' && call.resource.startsWith('arn:aws:apigateway:')) ||
    reason === '{"message":"multiple.resource.types"}';
  if (!unplaceable) throw new Error(`The evaluator refused ${call.action} on ${call.resource}: ${reason}`);
  return runUnsafeSimulation(simulation, {}) as Decision;
}

/** The Sids of the Allow statements that, each on its own, allow the call. */
export async function allowingStatements(call: Call, principal: string, policy: PolicyDocument): Promise<string[]> {
  const sids: string[] = [];
  for (const statement of policy.Statement as { Sid: string; Effect: string }[]) {
    if (statement.Effect !== 'Allow') continue;
    const alone = { ...policy, Statement: [statement] };
    if ((await decideCall(call, principal, alone)) === 'Allowed') sids.push(statement.Sid);
  }
  return sids;
}

/** One line naming a call: what it is for, what it asks, where the source says so. */
export const describeCall = (call: Call) =>
  `${call.phase} ${call.type} ${call.logicalId}: ${call.action} on ${call.resource}${
    Object.keys(call.context).length > 0 ? ` with ${JSON.stringify(call.context)}` : ''
  } (${call.file})`;

/** The distinct calls, each as first made: the same action on the same resource in the same context is decided once. */
export function distinct(calls: Call[]): Call[] {
  const first = new Map<string, Call>();
  for (const call of calls) {
    const key = JSON.stringify([call.action, call.resource, call.context]);
    if (!first.has(key)) first.set(key, call);
  }
  return [...first.values()];
}
