// Where the hand-written DynamoDB client sends its requests: the endpoint given (dynalite, the bench), else
// DynamoDB's in the function's Region as the SDK's endpoint rules resolve it.

import { ENV } from '../../../handlers/lib/environment.ts';

/**
 * DynamoDB's endpoint as the SDK's rules resolve it in the `aws` partition, FIPS and dual-stack
 * included. Other partitions (China, GovCloud, ISO) are refused rather than guessed.
 */
export function dynamodbEndpoint(region: string, env: NodeJS.ProcessEnv): string {
  const fips = env.AWS_USE_FIPS_ENDPOINT === 'true';
  const dualStack = env.AWS_USE_DUALSTACK_ENDPOINT === 'true';
  // The `aws` partition's Regions: its prefixes, one word, a number (us-gov-…, cn-…, us-iso…, eusc-… are not).
  if (!/^(us|eu|ap|sa|ca|me|af|il|mx)-[a-z]+-\d+$/.test(region)) {
    throw new Error(
      `DynamoDB endpoint for region "${region}" is not known to this client: set ${ENV.dynamodbEndpoint}`,
    );
  }
  return `https://dynamodb${fips ? '-fips' : ''}.${region}.${dualStack ? 'api.aws' : 'amazonaws.com'}`;
}

/**
 * Where requests go: the endpoint given, else DynamoDB's in the Region. Refused at init, with a reason,
 * where the SDK would resolve something this client does not (another partition; FIPS or dual-stack
 * with a custom endpoint, which the SDK also refuses). No Region: refused at the first call, as the SDK.
 */
export function endpointOf(endpoint: string | undefined, region: string | undefined, env: NodeJS.ProcessEnv) {
  const asked = ['AWS_USE_FIPS_ENDPOINT', 'AWS_USE_DUALSTACK_ENDPOINT'].filter((name) => env[name] === 'true');
  if (endpoint && asked.length > 0) throw new Error(`${asked.join(' and ')} cannot apply to a custom endpoint`);
  if (endpoint) return new URL(endpoint);
  return region ? new URL(dynamodbEndpoint(region, env)) : undefined;
}
