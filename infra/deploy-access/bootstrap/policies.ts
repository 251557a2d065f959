// Each environment's bootstrap execution policy and permissions boundary, from the JSON files beside this.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_TITLE } from '../../../handlers/lib/names.ts';
import { OPTIONS } from '../../options.ts';
import { defaultStackName, ENVIRONMENT_TAG } from '../../stack-environment.ts';

/**
 * The execution role's policy files, each a managed policy the access stack creates and `cdk bootstrap` is
 * given (IAM caps one at 6,144 characters): what the stacks' CloudFormation may do, what the options add
 * (each option folder's execution-statements.json), and what no grant may ever allow.
 */
export const EXECUTION_POLICIES = {
  'execution-policy': `${SERVICE_TITLE}Execution`,
  'execution-options': `${SERVICE_TITLE}ExecutionOptions`,
  'execution-guards': `${SERVICE_TITLE}ExecutionGuards`,
} as const;
export type ExecutionPolicyFile = keyof typeof EXECUTION_POLICIES;

const INFRA = fileURLToPath(new URL('../..', import.meta.url));
/** Each option's statements (infra/<option>/execution-statements.json): the execution-options policy, together. */
const OPTION_STATEMENTS = readdirSync(INFRA)
  .map((name) => join(INFRA, name, 'execution-statements.json'))
  .filter((file) => existsSync(file))
  .sort();
/** The policies an environment's execution role gets: the options' only when an option brings statements. */
export const EXECUTION_POLICY_FILES = (Object.keys(EXECUTION_POLICIES) as ExecutionPolicyFile[]).filter(
  (file) => file !== 'execution-options' || OPTION_STATEMENTS.length > 0,
);
export const executionPolicyNameOf = (file: ExecutionPolicyFile, environment: string) =>
  `${EXECUTION_POLICIES[file]}-${environment}`;
export const boundaryName = (environment: string) => `${SERVICE_TITLE}Boundary-${environment}`;
/** The environment's own bootstrap stack (the default, CDKToolkit, stays whatever it is). */
export const toolkitStackName = (environment: string) => `${SERVICE_TITLE}Toolkit-${environment}`;
/**
 * The Secrets Manager secret holding the pipeline's smoke user (`{"username", "password"}`), made by
 * the access stack: the deploy role reads it and signs in as any app would, with no Admin* call.
 */
export const smokeSecretName = (environment: string) => `${SERVICE_TITLE}Smoke-${environment}`;
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
  const text =
    file === 'execution-options'
      ? JSON.stringify({
          Version: '2012-10-17',
          Statement: OPTION_STATEMENTS.flatMap((path) => JSON.parse(readFileSync(path, 'utf8')).Statement),
        })
      : readFileSync(new URL(`${file}.json`, import.meta.url), 'utf8');
  const filled = text.replace(/\$\{(\w+)\}/g, (whole, name: string) => {
    if (name === 'BesideSuffix') return JSON.stringify(BESIDE).slice(1, -1);
    const value = values[name];
    if (value === undefined) throw new Error(`${file}.json: unknown placeholder ${whole}`);
    // Inside a JSON string: a token or ARN never holds a quote, but say so rather than assume it.
    return JSON.stringify(value).slice(1, -1);
  });
  const policy = JSON.parse(filled) as { Version: string; Statement: (Record<string, unknown> & { Why?: string })[] };
  // A resource naming `${BesideSuffix}`: one per stack an option stands beside the service's, none without.
  const suffixes = OPTIONS.flatMap(({ besideStacks }) => besideStacks ?? []).map(({ suffix }) => suffix);
  for (const statement of policy.Statement) {
    if (!Array.isArray(statement.Resource)) continue;
    statement.Resource = (statement.Resource as string[]).flatMap((resource) =>
      resource.includes(BESIDE) ? suffixes.map((suffix) => resource.replaceAll(BESIDE, suffix)) : [resource],
    );
  }
  return policy;
}

/** Where a policy file names the suffix of a stack beside the service's (`${BesideSuffix}`). */
const BESIDE = '\u0000beside\u0000';

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
