// `npm run check:deployed`: CloudFormation drift detection on the deployed stack and those beside it.

import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { explainAwsError } from '../../deployed/aws-errors.ts';
import { DRIFT_WAIT, detectDrift, type StackDrift, stacksBeside } from '../../deployed/drift.ts';
import { stackOutputs } from '../../deployed/stack-outputs.ts';
import { runCli } from './shell.ts';

const USAGE = `Usage: npm run check:deployed -- [--env NAME] [--outputs-file FILE]

  Runs CloudFormation drift detection on the deployed stack and on each stack whose outputs it
  reads (\`cdk deploy --all\` deploys them together), up to ${DRIFT_WAIT.timeoutMs / 60_000} minutes a stack. Prints each
  resource changed or deleted outside CloudFormation, each property with the template's value and
  the live one, and each resource of a type drift detection does not check. Changes nothing but
  the stacks' drift status; exits 1 on any drift, or when a detection fails.

  --env NAME         the environment's stack (-c env=NAME at deploy), when the outputs file holds several
  --outputs-file F   the outputs file (default: cdk.json's outputsFile, .local/cdk-outputs.json)`;

const OPTIONS = { env: { type: 'string' }, 'outputs-file': { type: 'string' } } as const;

// UNKNOWN: CloudFormation could not check the resource this time (its reason says why).
const changed = ({ status }: { status: string }) => status !== 'UNKNOWN';

function report(stack: StackDrift & { stackName: string; region: string }) {
  const { drifted, notChecked } = stack;
  const counts = `${stack.inSync} in sync, ${drifted.filter(changed).length} drifted, ${notChecked.length} not checked`;
  console.log(`${stack.stackName} (${stack.region}): ${counts}`);
  for (const { status, logicalId, type, reason, differences } of drifted) {
    console.log(`  ${status} ${logicalId} (${type})${reason ? `: ${reason}` : ''}`);
    for (const { path, expected, actual } of differences)
      console.log(`    ${path}: template ${expected}, live ${actual}`);
  }
  for (const { logicalId, type } of notChecked)
    console.log(`  not checked ${logicalId} (${type}): drift detection does not support the type`);
  if (stack.failure) console.log(`  detection failed: ${stack.failure}`);
}

await runCli({ usage: USAGE, options: OPTIONS, positionals: false }, async ({ values }) => {
  const outputs = await stackOutputs(values['outputs-file'], values.env);
  const inRegion = async <T>(region: string, stackName: string, call: (client: CloudFormationClient) => Promise<T>) => {
    const client = new CloudFormationClient({ region });
    try {
      return await call(client);
    } catch (error) {
      throw explainAwsError(error, { stackName, region, file: outputs.file });
    } finally {
      client.destroy();
    }
  };
  const { stackName, region } = outputs;
  const beside = await inRegion(region, stackName, (client) => stacksBeside(client, stackName));
  const stacks = [{ stackName, region }, ...beside.map((each) => ({ ...each, region: each.region ?? region }))];
  const drifts = await Promise.all(
    stacks.map(async (stack) => ({
      ...stack,
      ...(await inRegion(stack.region, stack.stackName, (client) => detectDrift(client, stack.stackName))),
    })),
  );
  for (const drift of drifts) report(drift);
  const drifted = drifts.flatMap(({ drifted }) => drifted.filter(changed));
  const failed = drifts.filter(({ failure, drifted }) => failure || !drifted.every(changed));
  if (drifted.length > 0)
    throw new Error(
      `${drifted.length === 1 ? '1 resource' : `${drifted.length} resources`} changed outside CloudFormation: deploy again to restore the template, or make the change in the code`,
    );
  if (failed.length > 0)
    throw new Error(`Drift detection failed on ${failed.map(({ stackName }) => stackName).join(', ')}: see above`);
  console.log(`No drift: ${stacks.map(({ stackName }) => stackName).join(', ')} match their templates`);
});
