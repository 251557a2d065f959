// `-c @aws-cdk/core:permissionsBoundary=NAME` on the command line, as CDK reads it from cdk.json:
// every role the app's stacks create then carries that managed policy as its permissions boundary,
// which the environment's execution policy requires (infra/deploy-access/bootstrap/execution-policy.json).

import type { App } from 'aws-cdk-lib';

export const PERMISSIONS_BOUNDARY_KEY = '@aws-cdk/core:permissionsBoundary';

/**
 * CDK honours the key only as `{ name }` or `{ arn }`, which cdk.json can write and `-c` cannot
 * (the CLI passes strings): a string is taken as the policy's name. Call before adding any stack.
 */
export function boundaryFromCommandLine(app: App): void {
  const given = app.node.tryGetContext(PERMISSIONS_BOUNDARY_KEY);
  if (typeof given !== 'string' || given.trim() === '') return;
  const value = given.trim();
  app.node.setContext(PERMISSIONS_BOUNDARY_KEY, value.startsWith('arn:') ? { arn: value } : { name: value });
}
