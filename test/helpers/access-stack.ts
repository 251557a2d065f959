// The access stack (infra/deploy-access.ts) synthesized for tests, and its IAM documents read as text.

import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { DeployAccessStack } from '../../infra/deploy-access.ts';
import { DEPLOY_ACCESS_STACK, readDeployAccess } from '../../infra/deploy-access-settings.ts';

const CDK_JSON_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;

/** As `npx cdk deploy --app "node infra/deploy-access-app.ts"` with this context would synthesize it. */
export function synthAccess(context: Record<string, string>) {
  const app = new App({ context: { ...CDK_JSON_CONTEXT, ...context } });
  const settings = readDeployAccess((key) => context[key], Object.keys(context));
  const stack = new DeployAccessStack(app, DEPLOY_ACCESS_STACK, settings);
  const assembly = app.synth();
  return {
    app,
    stack,
    template: Template.fromStack(stack),
    path: assembly.getStackByName(stack.stackName).templateFullPath,
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
