// CDK app: the service's stack(s), named for their environment (-c env), checked by cdk-nag.

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { flag } from './context-values.ts';
import { bootstrapRequirements } from './deploy-access/bootstrap/app-boundary.ts';
import { SettingsError } from './settings.ts';
import { refuseDisposableProduction, stackKindLine, stackNameOf } from './stack-environment.ts';
import { plantStoreStacks } from './stacks.ts';

const app = new App();
try {
  // The pipeline's deploys name their environment's boundary (docs/pipeline.md).
  bootstrapRequirements(app);
  const context = (key: string) => app.node.tryGetContext(key);
  // The edge's web ACL stack beside it takes this name too, plus its suffix (stacks.ts).
  const stackName = stackNameOf(context);
  // Checked before any stack exists: what `cdk synth` and `cdk deploy` build goes through here.
  refuseDisposableProduction(context, stackName);
  const stack = plantStoreStacks(app, stackName);
  console.error(stackKindLine(stack.stackName, flag(context, 'dev')));
} catch (error) {
  // A bad -c flag is the operator's to fix: say which, without a stack trace.
  if (!(error instanceof SettingsError)) throw error;
  console.error(`Refusing to synthesize: ${error.message}`);
  process.exit(1);
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
