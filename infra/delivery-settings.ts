// How a new version reaches callers: deployment strategy and provisioned concurrency, from context.

import { type ContextReader, integer, SettingsError, text } from './context-values.ts';

/** What each strategy does; the CodeDeploy configuration behind it is chosen in delivery.ts. */
export const DEPLOYMENT_STRATEGIES = {
  canary: '10% of requests for 5 minutes, then all',
  linear: '10% more every 2 minutes, all after 18',
  'all-at-once': 'all requests at once, no bake time, no alarm checks',
} as const;

export type DeploymentStrategy = keyof typeof DEPLOYMENT_STRATEGIES;

/** `-c deploymentStrategy`, `-c provisionedConcurrency` (docs/deploy.md). */
export interface DeliverySettings {
  strategy: DeploymentStrategy;
  provisionedConcurrency: number;
}

export function readDelivery(context: ContextReader, dev: boolean): DeliverySettings {
  return {
    strategy: readStrategy(context) ?? (dev ? 'all-at-once' : 'canary'),
    provisionedConcurrency: integer(context, 'provisionedConcurrency', 0, 0),
  };
}

function readStrategy(context: ContextReader): DeploymentStrategy | undefined {
  const given = text(context, 'deploymentStrategy');
  if (given === undefined) return undefined;
  const value = given.toLowerCase();
  if (Object.hasOwn(DEPLOYMENT_STRATEGIES, value)) return value as DeploymentStrategy;
  const choices = Object.entries(DEPLOYMENT_STRATEGIES).map(([name, effect]) => `${name} (${effect})`);
  throw new SettingsError(`deploymentStrategy must be one of ${choices.join(', ')}; got "${given}"`);
}
