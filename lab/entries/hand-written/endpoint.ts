// Where the hand-written DynamoDB client sends its requests: the endpoint given (dynalite, the bench),
// else DynamoDB's in the function's Region as the SDK's endpoint rules resolve it.

import { type Config, ENV } from '../../../handlers/lib/environment.ts';

/**
 * DynamoDB's endpoint as the SDK's rules resolve it in the `aws` partition, FIPS and dual-stack
 * included. Other partitions (China, GovCloud, ISO) are refused rather than guessed.
 */
export function dynamodbEndpoint(region: string, { useFipsEndpoint, useDualstackEndpoint }: Config['aws']): string {
  // The `aws` partition's Regions: its prefixes, one word, a number (us-gov-…, cn-…, us-iso…, eusc-… are not).
  if (!/^(us|eu|ap|sa|ca|me|af|il|mx)-[a-z]+-\d+$/.test(region)) {
    throw new Error(
      `DynamoDB endpoint for region "${region}" is not known to this client: set ${ENV.dynamodbEndpoint}`,
    );
  }
  return `https://dynamodb${useFipsEndpoint ? '-fips' : ''}.${region}.${useDualstackEndpoint ? 'api.aws' : 'amazonaws.com'}`;
}

/**
 * Where requests go: the endpoint given, else DynamoDB's in the Region; another partition refused at
 * init, with a reason. No Region: refused at the first call, as the SDK.
 */
export function endpointOf(endpoint: string | undefined, aws: Config['aws']) {
  if (endpoint) return new URL(endpoint);
  return aws.region ? new URL(dynamodbEndpoint(aws.region, aws)) : undefined;
}
