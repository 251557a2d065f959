// CDK app: one stack, with AWS Solutions checks (cdk-nag) run on every synth.

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PlantStoreStack } from './plant-store-stack.ts';

const app = new App();
new PlantStoreStack(app, app.node.tryGetContext('stackName') ?? 'PlantStore');
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
