// `npm run check:deployed`: the deployed template's claims checked on the live resources.

import { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import { BudgetsClient } from '@aws-sdk/client-budgets';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CodeDeployClient } from '@aws-sdk/client-codedeploy';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { explainAwsError } from '../../deployed/aws-errors.ts';
import { readDeployedStack } from '../../deployed/deployed-stack.ts';
import { checkClaim, type LiveClients } from '../../deployed/live-check.ts';
import { claimsOf } from '../../deployed/live-claims.ts';
import { stackOutputs } from '../../deployed/stack-outputs.ts';
import { escapeControls } from '../terminal-text.ts';
import { runCli } from './shell.ts';

const USAGE = `Usage: npm run check:deployed -- [--env NAME] [--outputs-file FILE]

  Reads the deployed stack's template from CloudFormation and checks, on the live resources, what it
  claims: the stage throttle, with the edge the function URL's AWS_IAM auth and that an unsigned
  request to it is refused 403, the reserved concurrency and the budget when the stack has them, the
  table's maximum on-demand throughput, each alarm's settings, the canary's deployment config and
  rollback alarms. Read-only; prints one line per finding and exits 1 when any differs.

  --env NAME         the environment's stack (-c env=NAME at deploy), when the outputs file holds several
  --outputs-file F   the outputs file (default: cdk.json's outputsFile, .local/cdk-outputs.json)`;

const OPTIONS = { env: { type: 'string' }, 'outputs-file': { type: 'string' } } as const;

await runCli({ usage: USAGE, options: OPTIONS, positionals: false }, async ({ values }) => {
  const outputs = await stackOutputs(values['outputs-file'], values.env);
  const region = outputs.region;
  const cloudformation = new CloudFormationClient({ region });
  const stack = await readDeployedStack(cloudformation, outputs.stackName).catch((error) => {
    throw explainAwsError(error, outputs);
  });
  cloudformation.destroy();
  const clients: LiveClients = {
    apigateway: new ApiGatewayV2Client({ region }),
    lambda: new LambdaClient({ region }),
    dynamodb: new DynamoDBClient({ region }),
    cloudwatch: new CloudWatchClient({ region }),
    codedeploy: new CodeDeployClient({ region }),
    // Budgets has one endpoint, in us-east-1.
    budgets: new BudgetsClient({ region: 'us-east-1' }),
    accountId: stack.accountId,
    probe: async (url) => (await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) })).status,
  };
  const findings = [];
  for (const claim of claimsOf(stack.template, stack.physicalIds)) findings.push(...(await checkClaim(claim, clients)));
  for (const client of Object.values(clients)) if (typeof client === 'object') client.destroy();
  for (const { ok, what, detail } of findings)
    console.log(escapeControls(`${ok ? 'ok  ' : 'DIFF'} ${what}: ${detail}`));
  const differ = findings.filter(({ ok }) => !ok).length;
  if (findings.length === 0)
    throw new Error(`Stack ${outputs.stackName} claims nothing this check reads: is it this project's stack?`);
  if (differ > 0)
    throw new Error(`Stack ${outputs.stackName}: ${differ} of ${findings.length} checks differ from the template`);
  console.log(`Stack ${outputs.stackName}: all ${findings.length} checks match the template`);
});
