// What an environment's execution policy requires of every stack: its boundary, its tag, its bootstrap.

import { type App, Tags } from 'aws-cdk-lib';
import { ENVIRONMENT_TAG, environmentOf } from '../../stack-environment.ts';
import { boundaryName, qualifierOf } from './policies.ts';

export const PERMISSIONS_BOUNDARY_KEY = '@aws-cdk/core:permissionsBoundary';
export const BOOTSTRAP_QUALIFIER_KEY = '@aws-cdk/core:bootstrapQualifier';

/**
 * The environment's qualifier and boundary unless the context names others; a `-c` string is taken as the
 * boundary policy's name (CDK honours only `{ name }` or `{ arn }`). Call before adding any stack.
 */
export function bootstrapRequirements(app: App): void {
  const environment = environmentOf((key) => app.node.tryGetContext(key));
  // Dashboards are named by the stack: the policy fences them by name.
  Tags.of(app).add(ENVIRONMENT_TAG, environment, { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] });
  if (app.node.tryGetContext(BOOTSTRAP_QUALIFIER_KEY) === undefined) {
    app.node.setContext(BOOTSTRAP_QUALIFIER_KEY, qualifierOf(environment));
  }
  const given = app.node.tryGetContext(PERMISSIONS_BOUNDARY_KEY);
  if (given !== undefined && typeof given !== 'string') return;
  const value = given?.trim() || boundaryName(environment);
  app.node.setContext(PERMISSIONS_BOUNDARY_KEY, value.startsWith('arn:') ? { arn: value } : { name: value });
}
