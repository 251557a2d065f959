// Where the hand-written DynamoDB client sends its requests: DynamoDB's endpoints as the SDK's rules
// resolve them in the aws partition, and clear refusals where this client would have to guess.

import { describe, expect, it } from '@jest/globals';
import { createPlantsClient } from '../entries/hand-written/dynamodb-client.ts';
import { dynamodbEndpoint } from '../entries/hand-written/endpoint.ts';

describe("the hand-written client's DynamoDB endpoint", () => {
  it("resolves DynamoDB's public, FIPS and dual-stack endpoints as the SDK's rules do in the aws partition", () => {
    const endpoint = (env: NodeJS.ProcessEnv) => dynamodbEndpoint('eu-west-1', env);
    expect(endpoint({})).toBe('https://dynamodb.eu-west-1.amazonaws.com');
    expect(endpoint({ AWS_USE_FIPS_ENDPOINT: 'true' })).toBe('https://dynamodb-fips.eu-west-1.amazonaws.com');
    expect(endpoint({ AWS_USE_DUALSTACK_ENDPOINT: 'true' })).toBe('https://dynamodb.eu-west-1.api.aws');
    expect(endpoint({ AWS_USE_FIPS_ENDPOINT: 'true', AWS_USE_DUALSTACK_ENDPOINT: 'true' })).toBe(
      'https://dynamodb-fips.eu-west-1.api.aws',
    );
  });

  it('refuses FIPS with a custom endpoint when the function starts, as the SDK refuses it', () => {
    process.env.AWS_USE_FIPS_ENDPOINT = 'true';
    try {
      expect(() =>
        createPlantsClient({
          dynamodbEndpoint: 'http://127.0.0.1:8000',
          aws: { region: 'eu-west-1', useFipsEndpoint: false, useDualstackEndpoint: false },
        }),
      ).toThrow('AWS_USE_FIPS_ENDPOINT cannot apply to a custom endpoint');
    } finally {
      delete process.env.AWS_USE_FIPS_ENDPOINT;
    }
  });

  it.each(['cn-north-1', 'us-gov-west-1', 'us-iso-east-1'])('refuses %s clearly rather than guess', (region) => {
    expect(() => dynamodbEndpoint(region, {})).toThrow(`region "${region}" is not known to this client`);
  });
});
