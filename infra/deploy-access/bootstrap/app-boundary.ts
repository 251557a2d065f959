// What an environment's execution policy (execution-policy.json) requires of every stack the app
// deploys, its beside stacks included: every role under the boundary named on the command line
// (`-c @aws-cdk/core:permissionsBoundary=NAME`, as the pipeline passes it), every taggable resource
// created with the environment's tag.

import { type App, Tags } from 'aws-cdk-lib';
import { ENVIRONMENT_TAG, environmentOf } from '../../stack-environment.ts';

export const PERMISSIONS_BOUNDARY_KEY = '@aws-cdk/core:permissionsBoundary';

/**
 * CDK honours the boundary key only as `{ name }` or `{ arn }`, which cdk.json can write and `-c`
 * cannot (the CLI passes strings): a string is taken as the policy's name. Call before adding any stack.
 */
export function bootstrapRequirements(app: App): void {
  Tags.of(app).add(
    ENVIRONMENT_TAG,
    environmentOf((key) => app.node.tryGetContext(key)),
    {
      // Dashboards are named by the stack: the policy fences them by name.
      excludeResourceTypes: ['AWS::CloudWatch::Dashboard'],
    },
  );
  const given = app.node.tryGetContext(PERMISSIONS_BOUNDARY_KEY);
  if (typeof given !== 'string' || given.trim() === '') return;
  const value = given.trim();
  app.node.setContext(PERMISSIONS_BOUNDARY_KEY, value.startsWith('arn:') ? { arn: value } : { name: value });
}
