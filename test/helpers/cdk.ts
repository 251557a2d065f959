// Synthesizes the stack as `cdk synth` does (cdk-nag included), into a temporary cloud assembly.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type Environment, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { PlantStoreStack } from '../../infra/plant-store-stack.ts';
import { plantStoreStacks } from '../../infra/stacks.ts';

export const STACK = 'PlantStore';

// cdk.json's context (the feature flags above all), which the CDK CLI passes to every synth.
const CDK_JSON_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;

export interface Synthesized {
  app: App;
  stack: PlantStoreStack;
  template: Template;
  /** The template file, as `sam local` and cfn-lint read it. */
  templatePath: string;
  outdir: string;
  /** With the edge outside us-east-1: the web ACL's own stack there. */
  waf?: { template: Template; templatePath: string };
  cleanup(): void;
}

/**
 * Bundling is skipped unless asked for: most tests are about the template, not the code. `env`
 * is the account and Region the CDK CLI would pass (the edge needs a Region at synth); none by default.
 */
export function synth(
  context: Record<string, unknown> = {},
  { bundle = false, env = {} }: { bundle?: boolean; env?: Environment } = {},
): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'plant-store-cdk-'));
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
  const stack = plantStoreStacks(app, STACK, env);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const assembly = app.synth();
  const wafStack = assembly.stacks.find((artifact) => artifact.stackName === `${STACK}EdgeWaf`);
  return {
    app,
    stack,
    template: Template.fromStack(stack),
    templatePath: assembly.getStackByName(STACK).templateFullPath,
    outdir,
    ...(wafStack && {
      waf: { template: Template.fromJSON(wafStack.template), templatePath: wafStack.templateFullPath },
    }),
    cleanup: () => rmSync(outdir, { recursive: true, force: true }),
  };
}
