// The edge's settings from CDK context (-c edge=true and its limits): defaults derived from the
// ceiling's rate, WAF's bounds, and the combinations refused at synth.

import { describe, expect, it } from '@jest/globals';
import { option } from '../../../infra/edge/option.ts';
import { readEdge } from '../../../infra/edge/settings.ts';
import { readSettings } from '../../../infra/settings.ts';

/** The service's settings with the edge's, as the app reads them (infra/stacks.ts). */
const from = (context: Record<string, unknown>) => {
  const read = (key: string) => context[key];
  const service = readSettings(read, Object.keys(context), option.contextKeys);
  return { ...service, edge: readEdge(read, service.ceiling.maxRequestsPerSecond) };
};

describe('the edge settings', () => {
  it('are off by default', () => {
    expect(from({}).edge).toBeUndefined();
  });

  it('give one token a fifth, one address half and everyone all of the ceiling’s rate (maxRequestsPerSecond) over a one-minute window', () => {
    const rate = (context: Record<string, unknown>) => from(context).ceiling.maxRequestsPerSecond;
    const defaults = { edge: 'true' };
    expect(from(defaults).edge).toEqual({
      windowSeconds: 60,
      tokenLimit: rate(defaults) * 60 * 0.2,
      ipLimit: rate(defaults) * 60 * 0.5,
      totalLimit: rate(defaults) * 60,
    });
    expect(from({ edge: 'true', maxRequestsPerSecond: '200', edgeWindowSeconds: '300' }).edge).toEqual({
      windowSeconds: 300,
      tokenLimit: 12_000,
      ipLimit: 30_000,
      totalLimit: 60_000,
    });
  });

  it('take a custom domain for the distribution, its certificate in us-east-1', () => {
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';
    const settings = from({ edge: 'true', domainName: 'plants.example.com', certificateArn });
    expect(settings.edge).toBeDefined();
    expect(settings.customDomain).toEqual({ domainName: 'plants.example.com', certificateArn, basePath: undefined });
  });

  it('take explicit limits', () => {
    expect(from({ edge: 'true', edgeTokenLimit: '120', edgeIpLimit: '900' }).edge).toMatchObject({
      tokenLimit: 120,
      ipLimit: 900,
    });
  });

  it.each([
    [{ edge: 'true', edgeSecretGeneration: '2' }, 'Unknown context key "edgeSecretGeneration"'],
    [{ edge: 'true', edgeTokenLimit: '9' }, 'edgeTokenLimit must be an integer from 10 to 2000000000, got "9"'],
    [{ edge: 'true', edgeIpLimit: '1e3' }, 'edgeIpLimit must be an integer from 10 to 2000000000'],
    [{ edge: 'true', edgeWindowSeconds: '30' }, 'edgeWindowSeconds must be one of 60, 120, 300, 600, got "30"'],
    [{ edgeTokenLimit: '100' }, 'edgeTokenLimit needs edge=true'],
    [{ edge: 'yes' }, 'edge must be true or false, got "yes"'],
    [
      {
        edge: 'true',
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab',
      },
      'edge=true puts domainName on the CloudFront distribution, whose certificate must be in ACM in us-east-1',
    ],
    [{ edge: 'true', samLocal: 'true' }, 'edge=true and samLocal=true cannot be combined'],
    [{ edge: 'true', jwtAuthorizer: 'true' }, 'edge=true and jwtAuthorizer=true cannot be combined'],
    [
      {
        edge: 'true',
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab',
        basePath: 'v1',
      },
      'edge=true and basePath cannot be combined',
    ],
    [{ edgeLimit: '5' }, 'Unknown context key "edgeLimit" (did you mean "edgeIpLimit"?)'],
  ])('refuse %j', (context, message) => {
    expect(() => from(context)).toThrow(message);
  });
});
