// Environments by name (-c env=NAME): each its own stack and `service` dimension.

import { SERVICE_NAME } from '../handlers/lib/telemetry-names.ts';
import { type ContextReader, flag, SettingsError, text } from './context-values.ts';

/** The environment a deploy without `-c env` makes: today's stack, names unchanged. */
export const PRODUCTION = 'production';
/** The production stack's name: it holds the retained table and user pool. */
export const PRODUCTION_STACK = 'PlantStore';
/** Tag on each environment's user pool: the pipeline's role may manage smoke users only in pools tagged so. */
export const ENVIRONMENT_TAG = 'PlantStoreEnvironment';

// Lower-case so that one name serves the stack, the metric dimension and a GitHub environment.
const NAME = /^[a-z][a-z0-9-]{0,19}$/;

/** `-c env`, checked; production when absent. */
export function environmentOf(context: ContextReader): string {
  const name = text(context, 'env') ?? PRODUCTION;
  if (!NAME.test(name)) {
    throw new SettingsError(
      `env must be 1 to 20 lower-case letters, digits or "-", starting with a letter (dev, staging…), got "${name}"`,
    );
  }
  return name;
}

/** The stack's roles, named for it: each environment's execution policy names exactly its own (bootstrap/). */
export type StackRole = 'Function' | 'CodeDeploy';
export const stackRoleName = (stackName: string, role: StackRole) => `${stackName}-${role}`;
/** IAM's limit on a role name (64), less the longest role's suffix. */
const MAX_STACK_NAME = 64 - stackRoleName('', 'CodeDeploy').length;

/**
 * `PlantStore` for production, `PlantStore-<env>` for others; `-c stackName` overrides, but not with another
 * environment's name, whose bootstrap policies would then reach it.
 */
export function stackNameOf(context: ContextReader): string {
  const environment = environmentOf(context);
  const given = text(context, 'stackName');
  if (given === undefined) return defaultStackName(environment);
  if (given.length > MAX_STACK_NAME) {
    throw new SettingsError(
      `-c stackName=${given} is ${given.length} characters; at most ${MAX_STACK_NAME}: the stack's role names carry it (IAM allows 64)`,
    );
  }
  const own = defaultStackName(environment);
  // Production's own prefix, `PlantStore-`, is every other environment's.
  const ours = given === own || (environment !== PRODUCTION && given.startsWith(`${own}-`));
  if (!ours && (given === PRODUCTION_STACK || given.startsWith(`${PRODUCTION_STACK}-`))) {
    throw new SettingsError(
      `-c stackName=${given} names another environment's stack, which -c env=${environment} would tag ${environment}: drop -c stackName (stack ${own}), or pick a name outside ${PRODUCTION_STACK}-*`,
    );
  }
  return given;
}

export function defaultStackName(environment: string): string {
  return environment === PRODUCTION ? PRODUCTION_STACK : `${PRODUCTION_STACK}-${environment}`;
}

/** The `service` dimension (and Powertools service name): production keeps today's, others carry their name. */
export function serviceNameOf(environment: string): string {
  return environment === PRODUCTION ? SERVICE_NAME : `${SERVICE_NAME}-${environment}`;
}

/** Said on every synth: the CDK CLI drops `-c dev` (no `=true`) with only a warning. */
export const stackKindLine = (stackName: string, disposable: boolean): string =>
  disposable
    ? `${stackName}: a disposable stack (-c dev=true): cdk destroy deletes its table, user pool and logs`
    : `${stackName}: a retained stack: its table, user pool and logs outlive cdk destroy (-c dev=true: a disposable one)`;

/** A disposable stack is refused as PlantStore, and in production, whose alarms would read its metrics. */
export function refuseDisposableProduction(context: ContextReader, stackName: string): void {
  // stackNameOf already refused the production stack's name in another environment.
  if (!flag(context, 'dev') || environmentOf(context) !== PRODUCTION) return;
  if (stackName !== PRODUCTION_STACK) {
    throw new SettingsError(
      `-c dev=true in the ${PRODUCTION} environment would feed production's alarms with ${stackName}'s metrics: add -c env=dev`,
    );
  }
  throw new SettingsError(
    `-c dev=true would make ${PRODUCTION_STACK}, the production stack, disposable (cdk destroy would delete its table and user pool): type -c env=dev -c dev=true (stack ${defaultStackName('dev')})`,
  );
}
