// The app synthesized in this process as `cdk synth` builds it, for the tests and the lab.

import { readFileSync } from 'node:fs';
import { App, type Environment, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { bootstrapRequirements } from '../../infra/deploy-access/bootstrap/app-boundary.ts';
import type { PlantStoreStack } from '../../infra/plant-store-stack.ts';
import { stackNameOf } from '../../infra/stack-environment.ts';
import { plantStoreStacks } from '../../infra/stacks.ts';

// cdk.json's context (the feature flags above all), which the CDK CLI passes to every synth.
const CDK_JSON_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;

export interface SynthesizeOptions {
  outdir: string;
  /** Bundle the function's code; skipped by default, as most uses are about the template. */
  bundle?: boolean;
  /** The account and Region the CDK CLI would pass (an option's stacks may need them at synth). */
  env?: Environment;
}

export function synthesize(context: Record<string, unknown>, { outdir, bundle = false, env = {} }: SynthesizeOptions) {
  const app = new App({
    outdir,
    context: {
      ...CDK_JSON_CONTEXT,
      ...(!bundle && { 'aws:cdk:bundling-stacks': [] }),
      // What the CDK CLI sets: the asset path in the template, which sam local follows to the code.
      'aws:cdk:enable-asset-metadata': true,
      ...context,
    },
  });
  // As app.ts, but a disposable production (-c dev=true under PlantStore) is not refused: tests synthesize it.
  bootstrapRequirements(app);
  const stack: PlantStoreStack = plantStoreStacks(
    app,
    stackNameOf((key) => app.node.tryGetContext(key)),
    env,
  );
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, assembly: app.synth() };
}
