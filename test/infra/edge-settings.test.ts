// The edge's settings from CDK context (-c edge=true and its limits): defaults derived from the
// stage throttle, WAF's bounds, and the combinations refused at synth.

import { describe, expect, it } from '@jest/globals';
import { readSettings } from '../../infra/settings.ts';

const from = (context: Record<string, unknown>) => readSettings((key) => context[key], Object.keys(context));

describe('the edge settings', () => {
  it('are off by default', () => {
    expect(from({}).edge).toBeUndefined();
  });

  it('give one token a fifth and one address half of the stage rate (maxRequestsPerSecond) over a one-minute window', () => {
    expect(from({ edge: 'true' }).edge).toEqual({
      windowSeconds: 60,
      tokenLimit: 1200,
      ipLimit: 3000,
      secretGeneration: 1,
    });
    expect(from({ edge: 'true', maxRequestsPerSecond: '200', edgeWindowSeconds: '300' }).edge).toEqual({
      windowSeconds: 300,
      tokenLimit: 12_000,
      ipLimit: 30_000,
      secretGeneration: 1,
    });
  });

  it('take explicit limits', () => {
    expect(from({ edge: 'true', edgeTokenLimit: '120', edgeIpLimit: '900' }).edge).toMatchObject({
      tokenLimit: 120,
      ipLimit: 900,
    });
  });

  it('take the origin secret’s generation, which a rotation raises', () => {
    expect(from({ edge: 'true', edgeSecretGeneration: '2' }).edge?.secretGeneration).toBe(2);
  });

  it.each([
    [{ edge: 'true', edgeSecretGeneration: '0' }, 'edgeSecretGeneration must be an integer from 1 to 9999, got "0"'],
    [{ edgeSecretGeneration: '2' }, 'edgeSecretGeneration needs edge=true'],
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
      'edge=true and domainName cannot be combined',
    ],
    [{ edge: 'true', samLocal: 'true' }, 'edge=true and samLocal=true cannot be combined'],
    [{ edgeLimit: '5' }, 'Unknown context key "edgeLimit" (did you mean "edgeIpLimit"?)'],
  ])('refuse %j', (context, message) => {
    expect(() => from(context)).toThrow(message);
  });
});
