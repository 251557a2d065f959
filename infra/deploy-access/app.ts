// CDK app of the access stack, deployed once by an administrator (docs/pipeline.md).

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SettingsError } from '../context-values.ts';
import { DEPLOY_ACCESS_STACK, readDeployAccess } from './settings.ts';
import { DeployAccessStack } from './stack.ts';

const app = new App();
try {
  const settings = readDeployAccess((key) => app.node.tryGetContext(key), Object.keys(app.node.getAllContext()));
  new DeployAccessStack(app, DEPLOY_ACCESS_STACK, settings);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(`Refusing to synthesize: ${error.message}`);
  process.exit(1);
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
