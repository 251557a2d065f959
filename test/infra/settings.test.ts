// Stack settings from CDK context: defaults, parsing of `-c key=value` strings, and refusals.

import { describe, expect, it } from '@jest/globals';
import { readSettings } from '../../infra/settings.ts';

const from = (context: Record<string, unknown>) => readSettings((key) => context[key]);

describe('readSettings', () => {
  it('defaults to a retained stack with a Cognito pool, throttling and no CORS', () => {
    expect(from({})).toEqual({
      dev: false,
      throttle: { rateLimit: 50, burstLimit: 100 },
      corsOrigins: [],
      externalAuth: undefined,
      requiredScope: undefined,
      samLocal: false,
      logLevel: 'INFO',
      debugSampleRate: 0,
      alarmEmail: undefined,
    });
  });

  it('reads command-line strings and cdk.json values alike', () => {
    const settings = from({
      dev: 'true',
      samLocal: true,
      throttleRate: '20',
      throttleBurst: 40,
      corsOrigins: ' https://a.example.com , https://b.example.com ',
      authRequiredScope: 'plants/read',
    });
    expect(settings).toMatchObject({
      dev: true,
      samLocal: true,
      throttle: { rateLimit: 20, burstLimit: 40 },
      corsOrigins: ['https://a.example.com', 'https://b.example.com'],
      requiredScope: 'plants/read',
    });
  });

  it('reads an external OIDC issuer with its optional JWKS URI and token use', () => {
    expect(
      from({
        authIssuer: 'https://tenant.eu.auth0.com/',
        authAudience: 'https://plants.example.com',
        authJwksUri: 'https://tenant.eu.auth0.com/.well-known/jwks.json',
        authTokenUse: 'any',
      }).externalAuth,
    ).toEqual({
      issuer: 'https://tenant.eu.auth0.com/',
      audience: 'https://plants.example.com',
      jwksUri: 'https://tenant.eu.auth0.com/.well-known/jwks.json',
      tokenUse: 'any',
    });
  });

  it.each([
    [{ dev: 'yes' }, 'dev must be true or false'],
    [{ throttleRate: '0' }, 'throttleRate must be a positive integer'],
    [{ throttleBurst: '1.5' }, 'throttleBurst must be a positive integer'],
    [{ authIssuer: 'https://issuer.example.com' }, 'authIssuer and authAudience must be given together'],
    [{ authAudience: 'api' }, 'authIssuer and authAudience must be given together'],
    [{ authIssuer: 'http://issuer.example.com', authAudience: 'api' }, 'authIssuer must be an https URL'],
    [{ authTokenUse: 'id' }, 'authJwksUri and authTokenUse need authIssuer and authAudience'],
    [{ authIssuer: 'https://i.example.com', authAudience: 'a', authTokenUse: 'both' }, 'authTokenUse must be'],
    [{ corsOrigins: ['https://a.example.com'] }, 'corsOrigins must be a string'],
    [{ logLevel: 'verbose' }, 'logLevel must be one of'],
    [{ debugSampleRate: '1.5' }, 'debugSampleRate must be a number from 0 to 1'],
    [{ debugSampleRate: '-0.1' }, 'debugSampleRate must be a number from 0 to 1'],
  ])('refuses %j, naming the key', (context, message) => {
    expect(() => from(context)).toThrow(message);
  });
});
