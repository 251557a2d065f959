// The app's stacks: the service's, with what each option on (infra/options.ts) adds to it or beside it.

import type { App, Environment } from 'aws-cdk-lib';
import { OPTIONS, type ServiceOption } from './options.ts';
import { PlantStoreStack } from './plant-store-stack.ts';
import { readSettings } from './settings.ts';

/** `env`: the CLI's account and Region, which an option's stacks may need (the service's stack is agnostic). */
export function plantStoreStacks(
  app: App,
  id: string,
  env: Environment = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  options: readonly ServiceOption[] = OPTIONS,
): PlantStoreStack {
  const context = (key: string) => app.node.tryGetContext(key);
  const service = readSettings(
    context,
    Object.keys(app.node.getAllContext()),
    options.flatMap(({ contextKeys }) => contextKeys),
  );
  const parts = options.flatMap((option) => option.apply(app, id, env, context, service) ?? []);
  return new PlantStoreStack(app, id, { ...Object.assign({}, ...parts.map((part) => part.stackProps)), parts });
}
