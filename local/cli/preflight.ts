// `npm run preflight`: before `cdk deploy`, IAM's own evaluator asked whether each stack's CloudFormation
// execution role may make every call its resources make (deployed/preflight.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IAMClient } from '@aws-sdk/client-iam';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { explainAwsError } from '../../deployed/aws-errors.ts';
import { checkStacks, describeDenial, stacksIn } from '../../deployed/preflight.ts';
import { cdkSynth } from '../cdk-synth.ts';
import { escapeControls } from '../terminal-text.ts';
import { runCli } from './shell.ts';

const USAGE = `Usage: npm run preflight -- [-c key=value]... [--assembly DIR]

  Before cdk deploy: synthesizes the app as cdk deploy would with the same -c flags, derives each call
  CloudFormation makes to create, update and delete every stack's resources (from the cited sources in
  infra/*/calls/), and asks IAM's policy simulator (iam:SimulatePrincipalPolicy) whether the stack's
  CloudFormation execution role, its permissions boundary included, may make them. Changes nothing; exits 1
  naming each denied action, its resource and the statement to add to the execution policy
  (infra/deploy-access/bootstrap/execution-policy.json, deployed by the access stack).

  -c key=value     a context flag, as cdk deploy takes it (repeatable)
  --assembly DIR   check this cloud assembly (cdk synth -o DIR) instead of synthesizing one`;

const OPTIONS = { context: { type: 'string', short: 'c', multiple: true }, assembly: { type: 'string' } } as const;

await runCli({ usage: USAGE, options: OPTIONS, positionals: false }, async ({ values }) => {
  const sts = new STSClient({});
  const iam = new IAMClient({ maxAttempts: 8 });
  const where = { stackName: 'the app', region: '(your AWS Region)', file: 'the AWS SDK' };
  const [identity, region] = await Promise.all([
    sts.send(new GetCallerIdentityCommand({})),
    sts.config.region().catch(() => undefined),
  ]).catch((error) => {
    throw explainAwsError(error, where);
  });
  if (!region) throw new Error('No AWS Region: set AWS_REGION or use a profile that names one');
  const account = identity.Account ?? '';
  const partition = identity.Arn?.split(':')[1] ?? 'aws';

  const dir = values.assembly ?? mkdtempSync(join(tmpdir(), 'preflight-'));
  try {
    if (!values.assembly) {
      console.log(`Synthesizing (npx cdk synth${(values.context ?? []).map((pair) => ` -c ${pair}`).join('')})…`);
      await cdkSynth(dir, values.context ?? []);
    }
    const stacks = stacksIn(dir, account, partition, region);
    const checked = await checkStacks(iam, stacks, account, partition).catch((error) => {
      throw explainAwsError(error, { ...where, stackName: stacks.map(({ stackName }) => stackName).join(', ') });
    });
    let denied = 0;
    for (const { stack, calls, denials } of checked) {
      for (const denial of denials) console.log(escapeControls(`DENY ${describeDenial(denial)}`));
      console.log(`${stack.stackName}: ${calls - denials.length} of ${calls} calls allowed to ${stack.roleArn}`);
      denied += denials.length;
    }
    if (denied > 0) {
      throw new Error(
        `${denied} calls the execution role may not make: add the statements above to infra/deploy-access/bootstrap/execution-policy.json and redeploy the access stack (docs/pipeline.md), or bootstrap with a policy that allows them`,
      );
    }
  } finally {
    if (!values.assembly) rmSync(dir, { recursive: true, force: true });
    sts.destroy();
    iam.destroy();
  }
});
