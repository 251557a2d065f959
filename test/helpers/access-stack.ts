// The access stack (infra/deploy-access/stack.ts) synthesized for tests, and its IAM documents read as text.

import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { acknowledgedIn, type Kept, synthOnServer } from './cdk.ts';

const CDK_JSON_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;

export interface AccessSynthesized {
  template: Template;
  /** The template file, as cfn-lint reads it. */
  path: string;
  /** cdk-nag's AwsSolutions findings left unacknowledged. */
  nagViolations: unknown[];
  /** The stack's acknowledged cdk-nag findings: [rule id, written reason]. */
  acknowledged: [string, string][];
}

/**
 * As `npx cdk deploy --app "node infra/deploy-access/app.ts"` with this context would synthesize it
 * (cdk-nag included), once a run, by the run's synth server.
 */
export async function synthAccess(context: Record<string, string>): Promise<AccessSynthesized> {
  const kept = await synthOnServer('access', { context });
  return {
    template: Template.fromJSON(JSON.parse(readFileSync(kept.templatePath, 'utf8')), {
      skipCyclicalDependenciesCheck: true,
    }),
    path: kept.templatePath,
    nagViolations: kept.nagViolations,
    acknowledged: kept.acknowledged,
  };
}

/** Synthesizes the access stack now, in this process, into `outdir` (the synth server's recipe). */
export async function synthAccessApp(outdir: string, context: Record<string, string>): Promise<Kept> {
  const [{ App }, { AwsSolutionsChecks }, { DeployAccessStack }, { DEPLOY_ACCESS_STACK, readDeployAccess }] =
    await Promise.all([
      import('aws-cdk-lib'),
      import('cdk-nag'),
      import('../../infra/deploy-access/stack.ts'),
      import('../../infra/deploy-access/settings.ts'),
    ]);
  const app = new App({ outdir, context: { ...CDK_JSON_CONTEXT, ...context } });
  const settings = readDeployAccess((key) => context[key], Object.keys(context));
  const stack = new DeployAccessStack(app, DEPLOY_ACCESS_STACK, settings);
  const assembly = app.synth();
  return {
    outdir,
    templatePath: assembly.getStackByName(stack.stackName).templateFullPath,
    beside: [],
    nagViolations: new AwsSolutionsChecks().validateScope(app).violations,
    acknowledged: await acknowledgedIn(app),
  };
}

/** CloudFormation's Ref / Fn::Join / Fn::GetAtt written out as text, so policies read as they will in IAM. */
function render(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(render);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if ('Ref' in object) return `<${object.Ref}>`;
  if ('Fn::GetAtt' in object) return `<${(object['Fn::GetAtt'] as string[]).join('.')}>`;
  if ('Fn::Join' in object) {
    const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
    return parts.map(render).join(separator);
  }
  return Object.fromEntries(Object.entries(object).map(([key, each]) => [key, render(each)]));
}

export const resources = (template: Template, type: string) =>
  Object.entries(template.findResources(type)).map(([id, resource]) => ({
    id,
    ...(render(resource.Properties) as object),
  }));
export const roleTrust = (template: Template, idPrefix: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties
  (resources(template, 'AWS::IAM::Role').find(({ id }) => id.startsWith(idPrefix)) as any).AssumeRolePolicyDocument
    .Statement;
