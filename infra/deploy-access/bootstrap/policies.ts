// Each environment's bootstrap execution policy and permissions boundary, from the JSON files beside this.

import { readFileSync } from 'node:fs';
import { defaultStackName, ENVIRONMENT_TAG } from '../../stack-environment.ts';

/**
 * The execution role's policy files, each a managed policy the access stack creates and `cdk bootstrap` is
 * given (IAM caps one at 6,144 characters): what the stacks' CloudFormation may do, what the opt-in options
 * add (the edge's and the budget's statements), and what no grant may ever allow.
 */
export const EXECUTION_POLICIES = {
  'execution-policy': 'PlantStoreExecution',
  'execution-options': 'PlantStoreExecutionOptions',
  'execution-guards': 'PlantStoreExecutionGuards',
} as const;
export type ExecutionPolicyFile = keyof typeof EXECUTION_POLICIES;
export const EXECUTION_POLICY_FILES = Object.keys(EXECUTION_POLICIES) as ExecutionPolicyFile[];
export const executionPolicyNameOf = (file: ExecutionPolicyFile, environment: string) =>
  `${EXECUTION_POLICIES[file]}-${environment}`;
/** The first of them, which names the others in the docs. */
export const executionPolicyName = (environment: string) => executionPolicyNameOf('execution-policy', environment);
export const boundaryName = (environment: string) => `PlantStoreBoundary-${environment}`;
/** The environment's own bootstrap stack (the default, CDKToolkit, stays whatever it is). */
export const toolkitStackName = (environment: string) => `PlantStoreToolkit-${environment}`;
/**
 * The Secrets Manager secret holding the pipeline's smoke user (`{"username", "password"}`), made by
 * the access stack: the deploy role reads it and signs in as any app would, with no Admin* call.
 */
export const smokeSecretName = (environment: string) => `PlantStoreSmoke-${environment}`;
/** The smoke user of every environment's pool (a reserved domain, RFC 2606: no mail reaches it). */
export const SMOKE_USERNAME = 'ci-smoke@example.com';

/** `ps` and the environment's letters and digits, at most 10 (dev → psdev); the settings refuse two alike. */
export const qualifierOf = (environment: string) => `ps${environment.replace(/[^a-z0-9]/g, '').slice(0, 8)}`;

export type PolicyFile = ExecutionPolicyFile | 'permissions-boundary';

/** The account and partition: concrete in tests, CloudFormation's pseudo parameters in the access stack. */
export interface Where {
  accountId: string;
  partition: string;
}

/**
 * A policy file with its placeholders filled for `environment`. A statement's `Why` (a grant that cannot be
 * fenced, and what it reaches) stays in the file, beside the grant: IAM takes no such key.
 */
export function renderPolicy(file: PolicyFile, environment: string, where: Where) {
  const { Version, Statement } = annotatedPolicy(file, environment, where);
  return { Version, Statement: Statement.map(({ Why: _why, ...statement }) => statement) };
}

/** As renderPolicy, each statement still with its `Why`. */
export function annotatedPolicy(file: PolicyFile, environment: string, { accountId, partition }: Where) {
  const values: Record<string, string> = {
    Partition: partition,
    AccountId: accountId,
    Environment: environment,
    EnvironmentTag: ENVIRONMENT_TAG,
    StackPrefix: defaultStackName(environment),
    Qualifier: qualifierOf(environment),
    BoundaryName: boundaryName(environment),
  };
  const text = readFileSync(new URL(`${file}.json`, import.meta.url), 'utf8');
  const filled = text.replace(/\$\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${file}.json: unknown placeholder ${whole}`);
    // Inside a JSON string: a token or ARN never holds a quote, but say so rather than assume it.
    return JSON.stringify(value).slice(1, -1);
  });
  return JSON.parse(filled) as { Version: string; Statement: (Record<string, unknown> & { Why?: string })[] };
}

/**
 * The command that bootstraps `environment` (`$ACCOUNT`: the account id). No --custom-permissions-boundary:
 * it would bound the execution role itself; the app's roles get theirs from app-boundary.ts.
 */
export const bootstrapCommand = (environment: string) =>
  [
    'npx cdk bootstrap',
    `--qualifier ${qualifierOf(environment)}`,
    `--toolkit-stack-name ${toolkitStackName(environment)}`,
    `--cloudformation-execution-policies ${EXECUTION_POLICY_FILES.map((file) => `arn:aws:iam::$ACCOUNT:policy/${executionPolicyNameOf(file, environment)}`).join(',')}`,
  ].join(' ');
