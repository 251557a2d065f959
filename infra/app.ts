// CDK app: one stack, with AWS Solutions checks (cdk-nag) run on every synth.

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { flag } from './context-values.ts';
import { SettingsError } from './settings.ts';
import { plantStoreStacks } from './stacks.ts';

const app = new App();
try {
  const stack = plantStoreStacks(app, app.node.tryGetContext('stackName') ?? 'PlantStore');
  // The CDK CLI drops `-c dev` (no `=true`) with only a warning: every synth says which kind it made.
  console.error(
    flag((key) => app.node.tryGetContext(key), 'dev')
      ? `${stack.stackName}: a disposable stack (-c dev=true): cdk destroy deletes its table, user pool and logs`
      : `${stack.stackName}: a retained stack: its table, user pool and logs outlive cdk destroy (-c dev=true: a disposable one)`,
  );
} catch (error) {
  // A bad -c flag is the operator's to fix: say which, without a stack trace.
  if (!(error instanceof SettingsError)) throw error;
  console.error(`Refusing to synthesize: ${error.message}`);
  process.exit(1);
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
