// CDK app: one stack, with AWS Solutions checks (cdk-nag) run on every synth.

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PlantStoreStack } from './plant-store-stack.ts';
import { SettingsError } from './settings.ts';

const app = new App();
try {
  new PlantStoreStack(app, app.node.tryGetContext('stackName') ?? 'PlantStore');
} catch (error) {
  // A bad -c flag is the operator's to fix: say which, without a stack trace.
  if (!(error instanceof SettingsError)) throw error;
  console.error(`Refusing to synthesize: ${error.message}`);
  process.exit(1);
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
