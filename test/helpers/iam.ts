// IAM decisions by an evaluator, not by reading policies as text: @cloud-copilot/iam-simulate over
// the synthesized documents, with CloudFormation's references resolved for one made-up account.

import { createValidatedPolicy, validateTrustPolicy } from '@cloud-copilot/iam-policy';
import { runSimulation, runUnsafeSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import type { Template } from 'aws-cdk-lib/assertions';

export const ACCOUNT = '111111111111';
export const REGION = 'eu-west-1';
// biome-ignore lint/suspicious/noExplicitAny: IAM policy documents, as the evaluator takes them
export type PolicyDocument = any;
export type Decision = 'Allowed' | 'ImplicitlyDenied' | 'ExplicitlyDenied';

/** CloudFormation's Ref, Fn::GetAtt, Fn::Join and Fn::Sub written out as IAM will see them. */
export function resolveIn(template: Template, value: unknown): unknown {
  const resources = template.toJSON().Resources as Record<
    string,
    { Type: string; Properties?: Record<string, unknown> }
  >;
  const pseudo: Record<string, string> = { 'AWS::AccountId': ACCOUNT, 'AWS::Partition': 'aws', 'AWS::Region': REGION };
  const refOf = (id: string): string => {
    if (pseudo[id]) return pseudo[id];
    const resource = resources[id];
    if (resource?.Type === 'AWS::IAM::ManagedPolicy') {
      return `arn:aws:iam::${ACCOUNT}:policy/${resource.Properties?.ManagedPolicyName}`;
    }
    if (resource?.Type === 'AWS::IAM::OIDCProvider') {
      return `arn:aws:iam::${ACCOUNT}:oidc-provider/token.actions.githubusercontent.com`;
    }
    if (resource?.Type === 'AWS::IAM::Role') return id;
    // A secret's ARN is its name and six characters Secrets Manager picks.
    if (resource?.Type === 'AWS::SecretsManager::Secret') return secretArn(String(resource.Properties?.Name));
    throw new Error(`No value for Ref ${id}`);
  };
  const walk = (each: unknown): unknown => {
    if (Array.isArray(each)) return each.map(walk);
    if (each === null || typeof each !== 'object') return each;
    const object = each as Record<string, unknown>;
    if ('Ref' in object) return refOf(object.Ref as string);
    if ('Fn::GetAtt' in object) {
      const [id, attribute] = object['Fn::GetAtt'] as [string, string];
      if (attribute === 'Arn' && resources[id]?.Type === 'AWS::IAM::Role') return roleArn(id);
      if (attribute === 'Arn' && resources[id]?.Type === 'AWS::IAM::OIDCProvider') return refOf(id);
      throw new Error(`No value for ${id}.${attribute}`);
    }
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return parts.map(walk).join(separator);
    }
    return Object.fromEntries(Object.entries(object).map(([key, inner]) => [key, walk(inner)]));
  };
  return walk(value);
}

export const roleArn = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
export const secretArn = (name: string) => `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-AbC123`;

/** The evaluator's decision, after it has validated the policies, the action and the resource's ARN. */
export async function decide(simulation: Omit<Simulation, 'serviceControlPolicies' | 'resourceControlPolicies'>) {
  const full = { serviceControlPolicies: [], resourceControlPolicies: [], ...simulation };
  const result = await runSimulation(full, {});
  if (result.resultType === 'error') {
    throw new Error(`The evaluator refused the simulation: ${JSON.stringify(result.errors)}`);
  }
  return { decision: result.overallResult as Decision, ignored: ignoredKeys(result) };
}

/**
 * As `decide`, for an API Gateway call on an HTTP API path (`/apis/…`), which the evaluator's data
 * cannot place (its API Gateway actions list the REST resource types only): the validating run must
 * refuse for exactly that reason, and the decision comes from a run that skips the placing; every
 * statement, condition and deny is evaluated all the same.
 */
export async function decideHttpApi(
  simulation: Omit<Simulation, 'serviceControlPolicies' | 'resourceControlPolicies'>,
) {
  const full = { serviceControlPolicies: [], resourceControlPolicies: [], ...simulation };
  const result = await runSimulation(full, {});
  if (result.resultType !== 'error' || JSON.stringify(result.errors) !== '{"message":"no.resource.types"}') {
    throw new Error(`The evaluator can place ${simulation.request.resource.resource}: use decide()`);
  }
  return runUnsafeSimulation(full, {}) as Decision;
}

/**
 * As `decide`, for an ARN that fits two of the action's resource types (a Lambda alias's and a version's
 * have one shape): the validating run must refuse for exactly that reason, the decision comes from a run
 * that skips the placing.
 */
export async function decideEitherType(
  simulation: Omit<Simulation, 'serviceControlPolicies' | 'resourceControlPolicies'>,
) {
  const full = { serviceControlPolicies: [], resourceControlPolicies: [], ...simulation };
  const result = await runSimulation(full, {});
  if (result.resultType !== 'error' || JSON.stringify(result.errors) !== '{"message":"multiple.resource.types"}') {
    throw new Error(`The evaluator can place ${simulation.request.resource.resource}: use decide()`);
  }
  return runUnsafeSimulation(full, {}) as Decision;
}

// biome-ignore lint/suspicious/noExplicitAny: the evaluator's result union
const ignoredKeys = (result: any): string[] => result.result?.ignoredContextKeys ?? [];

/**
 * Whether a GitHub token with these claims may take the role (AssumeRoleWithWebIdentity). The
 * evaluator's validating run drops `…:sub` and `…:aud`, which AWS's service reference does not list
 * under the action (they are the OIDC keys IAM has always had): that run must drop nothing else,
 * and the decision comes from a run that keeps every claim.
 */
export async function assumeWithToken(
  trust: PolicyDocument,
  role: string,
  provider: string,
  claims: Record<string, string>,
) {
  // Validated once, and carrying a name: the unvalidating run needs one to report the statement it used.
  const resourcePolicy = createValidatedPolicy(trust, validateTrustPolicy, { name: 'trust policy' });
  if (resourcePolicy.errors.length > 0)
    throw new Error(`Invalid trust policy: ${JSON.stringify(resourcePolicy.errors)}`);
  const simulation = {
    request: {
      principal: provider,
      action: 'sts:AssumeRoleWithWebIdentity',
      resource: { resource: role, accountId: ACCOUNT },
      contextVariables: claims,
    },
    identityPolicies: [],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    resourcePolicy,
  };
  const { ignored } = await decide(simulation);
  const standard = new Set(['sub', 'aud'].map((name) => `token.actions.githubusercontent.com:${name}`));
  const unexpected = ignored.filter((key) => !standard.has(key));
  if (unexpected.length > 0) throw new Error(`The evaluator ignored claims ${unexpected.join(', ')}`);
  return runUnsafeSimulation(simulation, {}) as Decision;
}
