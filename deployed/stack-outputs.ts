// A stack's outputs for --env: from the outputs file, else from CloudFormation (deploys rewrite the file).

import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { explainAwsError } from './aws-errors.ts';
import { OutputsError, readOutputs, StackNotInFileError, type StackOutputs, stackOutputsOf } from './outputs.ts';

/** `cloudformation` for tests; by default the SDK's own credentials and Region (AWS_REGION, profile). */
export async function stackOutputs(
  given: string | undefined,
  environment: string | undefined,
  cloudformation: () => CloudFormationClient = () => new CloudFormationClient({}),
): Promise<StackOutputs> {
  try {
    return readOutputs(given, environment);
  } catch (error) {
    if (!(error instanceof StackNotInFileError)) throw error;
    const client = cloudformation();
    // No Region configured: nowhere to ask, and the file's own message says what to run.
    const region = await client.config.region().catch(() => undefined);
    if (!region) throw error;
    try {
      const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: error.stackName }));
      const outputs = Object.fromEntries(
        (Stacks?.[0]?.Outputs ?? []).map(({ OutputKey, OutputValue }) => [OutputKey ?? '', OutputValue ?? '']),
      );
      return stackOutputsOf(error.stackName, outputs, 'CloudFormation', `stack ${error.stackName} in ${region}`);
    } catch (described) {
      if (described instanceof OutputsError) throw described;
      // "Stack with id … does not exist": not deployed in this Region, as the file's message says.
      if ((described as Error).name === 'ValidationError') throw error;
      throw explainAwsError(described, { stackName: error.stackName, region, file: 'CloudFormation' });
    } finally {
      client.destroy();
    }
  }
}
