// Environments by name (`-c env=NAME`): each one its own stack and its own `service` metric
// dimension, so two environments in one account never share data, alarms or a dashboard.

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

/** `PlantStore` for production, `PlantStore-<env>` for any other; `-c stackName` overrides. */
export function stackNameOf(context: ContextReader): string {
  const environment = environmentOf(context);
  return text(context, 'stackName') ?? defaultStackName(environment);
}

export function defaultStackName(environment: string): string {
  return environment === PRODUCTION ? PRODUCTION_STACK : `${PRODUCTION_STACK}-${environment}`;
}

/** The `service` dimension (and Powertools service name): production keeps today's, others carry their name. */
export function serviceNameOf(environment: string): string {
  return environment === PRODUCTION ? SERVICE_NAME : `${SERVICE_NAME}-${environment}`;
}

/**
 * The line every synth prints about the stack it made: the CDK CLI drops `-c dev` (no `=true`) with
 * only a warning, so which kind was made is always said.
 */
export const stackKindLine = (stackName: string, disposable: boolean): string =>
  disposable
    ? `${stackName}: a disposable stack (-c dev=true): cdk destroy deletes its table, user pool and logs`
    : `${stackName}: a retained stack: its table, user pool and logs outlive cdk destroy (-c dev=true: a disposable one)`;

/**
 * A disposable stack (`-c dev=true`) deletes its table and user pool with it: refused under the
 * production stack's name, and in the production environment, whose metrics (its `service`) it
 * would share with the production stack's alarms.
 */
export function refuseDisposableProduction(context: ContextReader, stackName: string): void {
  if (!flag(context, 'dev')) return;
  const environment = environmentOf(context);
  if (stackName !== PRODUCTION_STACK && environment !== PRODUCTION) return;
  const instead = environment === PRODUCTION ? 'dev' : environment;
  if (stackName !== PRODUCTION_STACK) {
    throw new SettingsError(
      `-c dev=true in the ${PRODUCTION} environment would feed production's alarms with ${stackName}'s metrics: add -c env=${instead}`,
    );
  }
  const named = text(context, 'stackName') === undefined ? '' : ' without -c stackName';
  throw new SettingsError(
    `-c dev=true would make ${PRODUCTION_STACK}, the production stack, disposable (cdk destroy would delete its table and user pool): type -c env=${instead} -c dev=true${named} (stack ${defaultStackName(instead)})`,
  );
}
