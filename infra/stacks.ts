// The app's stacks: the service's, and those the opt-in options that are on add beside it
// (infra/options.ts), in Regions of their own.

import type { App, Environment } from 'aws-cdk-lib';
import { addOptionStacks } from './options.ts';
import { PlantStoreStack } from './plant-store-stack.ts';
import { readSettings } from './settings.ts';

/**
 * Without an option that adds stacks, one environment-agnostic stack, as always. `env`: the CLI's
 * account and Region (from the profile or AWS_REGION), for an option whose stacks need them at synth.
 */
export function plantStoreStacks(
  app: App,
  id: string,
  env: Environment = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
): PlantStoreStack {
  const context = (key: string) => app.node.tryGetContext(key);
  const { options } = readSettings(context, Object.keys(app.node.getAllContext()));
  const { handoffs, ...props } = addOptionStacks(app, id, env, options);
  return new PlantStoreStack(app, id, { ...props, handoffs });
}
