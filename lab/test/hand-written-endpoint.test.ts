// Where the hand-written DynamoDB client sends its requests: DynamoDB's endpoints as the SDK's rules
// resolve them in the aws partition, and clear refusals where this client would have to guess.

import { describe, expect, it } from '@jest/globals';
import { dynamodbEndpoint } from '../entries/hand-written/endpoint.ts';

const aws = (useFipsEndpoint: boolean, useDualstackEndpoint: boolean) => ({
  region: 'eu-west-1',
  useFipsEndpoint,
  useDualstackEndpoint,
});

describe("the hand-written client's DynamoDB endpoint", () => {
  it("resolves DynamoDB's public, FIPS and dual-stack endpoints as the SDK's rules do in the aws partition", () => {
    expect(dynamodbEndpoint('eu-west-1', aws(false, false))).toBe('https://dynamodb.eu-west-1.amazonaws.com');
    expect(dynamodbEndpoint('eu-west-1', aws(true, false))).toBe('https://dynamodb-fips.eu-west-1.amazonaws.com');
    expect(dynamodbEndpoint('eu-west-1', aws(false, true))).toBe('https://dynamodb.eu-west-1.api.aws');
    expect(dynamodbEndpoint('eu-west-1', aws(true, true))).toBe('https://dynamodb-fips.eu-west-1.api.aws');
  });

  it.each(['cn-north-1', 'us-gov-west-1', 'us-iso-east-1'])('refuses %s clearly rather than guess', (region) => {
    expect(() => dynamodbEndpoint(region, aws(false, false))).toThrow(`region "${region}" is not known to this client`);
  });
});
