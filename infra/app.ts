// CDK app: the service's stack(s), named for their environment (-c env), checked by cdk-nag.

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { NO_ALARM_EMAIL } from './alarm-mail.ts';
import { flag, text } from './context-values.ts';
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
  // Alarms that mail no one are easy to miss: every synth without an address says so.
  if (text(context, 'alarmEmail') === undefined) console.error(`${stack.stackName}: ${NO_ALARM_EMAIL}`);
} catch (error) {
  // A bad -c flag is the operator's to fix: say which, without a stack trace.
  if (!(error instanceof SettingsError)) throw error;
  console.error(`Refusing to synthesize: ${error.message}`);
  process.exit(1);
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
