// Stack settings from CDK context: defaults, parsing of `-c key=value` strings, and refusals.

import { describe, expect, it } from '@jest/globals';
import { READ_UNITS_PER_REQUEST } from '../../infra/ceiling.ts';
import { readSettings } from '../../infra/settings.ts';

const from = (context: Record<string, unknown>) => readSettings((key) => context[key], Object.keys(context));

describe('readSettings', () => {
  it('defaults to a retained stack with a Cognito pool, throttling, no CORS, no extras, and alarm thresholds', () => {
    expect(from({})).toEqual({
      dev: false,
      ceiling: {
        maxRequestsPerSecond: 100,
        throttle: { rateLimit: 100, burstLimit: 25 },
        concurrency: 25,
        reserveConcurrency: false,
        maxReadRequestUnits: Math.ceil(100 * READ_UNITS_PER_REQUEST),
        maxWriteRequestUnits: 1000,
      },
      corsOrigins: [],
      identity: {
        source: 'userPool',
        requiredScopes: [],
        groupsClaim: undefined,
        accessTokenMinutes: 60,
        domainPrefix: undefined,
      },
      jwtAuthorizer: false,
      customDomain: undefined,
      publicBaseUrl: undefined,
      samLocal: false,
      architecture: 'arm64',
      memoryMb: 1024,
      sourceMaps: false,
      telemetry: {
        requestLog: 'failures',
        accessLog: 'lean',
        accessLogClass: 'infrequent',
        tracing: false,
        systemLogLevel: 'WARN',
      },
      alarms: { email: undefined, errorRatePercent: 1, minRequests: 10, p99Ms: 3000 },
      delivery: { strategy: 'canary', provisionedConcurrency: 0 },
      groupCache: {},
      environment: 'production',
    });
  });

  it("sets the function's group cache only where asked, within the function's own bounds", () => {
    expect(from({ groupCacheSeconds: '0', groupCacheMaxBytes: 1048576 }).groupCache).toEqual({
      ttlSeconds: 0,
      maxBytes: 1048576,
    });
    expect(() => from({ groupCacheSeconds: '3601' })).toThrow('groupCacheSeconds must be an integer from 0 to 3600');
    expect(() => from({ groupCacheMaxBytes: '-1' })).toThrow('groupCacheMaxBytes must be an integer from 0 to');
  });

  it('reads command-line strings and cdk.json values alike', () => {
    const settings = from({
      dev: 'true',
      samLocal: true,
      maxRequestsPerSecond: '20',
      reserveConcurrency: true,
      alarmEmail: 'oncall@example.com',
      corsOrigins: ' https://a.example.com , https://b.example.com ',
      authRequiredScope: ' plants/read  https://plants.example.com/admin ',
      accessTokenMinutes: 5,
      authDomainPrefix: 'acme-plants',
      jwtAuthorizer: 'true',
      alarmErrorRatePercent: '0.5',
      alarmMinRequests: 50,
      alarmP99Ms: '1500',
      architecture: 'x86_64',
      memoryMb: '512',
      requestLog: 'all',
      accessLog: 'full',
      accessLogClass: 'standard',
      tracing: true,
      systemLogLevel: 'info',
    });
    expect(settings).toMatchObject({
      dev: true,
      samLocal: true,
      architecture: 'x86_64',
      memoryMb: 512,
      ceiling: {
        maxRequestsPerSecond: 20,
        throttle: { rateLimit: 20, burstLimit: 10 },
        concurrency: 10,
        reserveConcurrency: true,
        maxReadRequestUnits: Math.ceil(20 * READ_UNITS_PER_REQUEST),
        maxWriteRequestUnits: 200,
      },
      corsOrigins: ['https://a.example.com', 'https://b.example.com'],
      identity: {
        requiredScopes: ['plants/read', 'https://plants.example.com/admin'],
        accessTokenMinutes: 5,
        domainPrefix: 'acme-plants',
      },
      jwtAuthorizer: true,
      alarms: { errorRatePercent: 0.5, minRequests: 50, p99Ms: 1500 },
      telemetry: {
        requestLog: 'all',
        accessLog: 'full',
        accessLogClass: 'standard',
        tracing: true,
        systemLogLevel: 'INFO',
      },
    });
  });

  it('names the environment (-c env), production unless given, and refuses a name no stack or GitHub environment could take', () => {
    expect(from({}).environment).toBe('production');
    expect(from({ env: 'staging' }).environment).toBe('staging');
    expect(() => from({ env: 'Staging' })).toThrow(/^env must be 1 to 20 lower-case letters/);
  });

  it('deploys a retained stack as a canary and a dev stack all at once, unless a strategy is given', () => {
    expect(from({}).delivery.strategy).toBe('canary');
    expect(from({ dev: 'true' }).delivery.strategy).toBe('all-at-once');
    expect(from({ dev: 'true', deploymentStrategy: 'canary' }).delivery.strategy).toBe('canary');
    expect(from({ deploymentStrategy: ' Linear ' }).delivery.strategy).toBe('linear');
    expect(from({ deploymentStrategy: 'all-at-once', provisionedConcurrency: '0' }).delivery).toEqual({
      strategy: 'all-at-once',
      provisionedConcurrency: 0,
    });
    expect(from({ provisionedConcurrency: 5 }).delivery.provisionedConcurrency).toBe(5);
  });

  it('refuses an unknown deployment strategy, saying what each one does', () => {
    expect(() => from({ deploymentStrategy: 'Canary10Percent5Minutes' })).toThrow(
      'deploymentStrategy must be one of canary (10% of requests for 5 minutes, then all), linear (10% more ' +
        'every 2 minutes, all after 18), all-at-once (all requests at once, no bake time, no alarm checks); ' +
        'got "Canary10Percent5Minutes"',
    );
  });

  it('reads an external OIDC issuer with its JWKS URI, token use, issuer type and groups claim', () => {
    expect(
      from({
        authIssuer: 'https://tenant.eu.auth0.com/',
        authAudience: 'https://plants.example.com, second',
        authJwksUri: 'https://tenant.eu.auth0.com/.well-known/jwks.json',
        authTokenUse: 'any',
        authIssuerType: 'oidc',
        authGroupsClaim: 'https://plants.example.com/groups',
        authRequiredScope: 'read:plants',
      }).identity,
    ).toEqual({
      source: 'external',
      issuer: 'https://tenant.eu.auth0.com/',
      audience: ['https://plants.example.com', 'second'],
      jwksUri: 'https://tenant.eu.auth0.com/.well-known/jwks.json',
      tokenUse: 'any',
      issuerType: 'oidc',
      groupsClaim: 'https://plants.example.com/groups',
      requiredScopes: ['read:plants'],
    });
  });

  it('reads a custom domain, with the base path trimmed of slashes', () => {
    const certificateArn = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';
    expect(from({ domainName: 'api.example.com', certificateArn, basePath: '/plants/v1/' }).customDomain).toEqual({
      domainName: 'api.example.com',
      certificateArn,
      basePath: 'plants/v1',
    });
    expect(from({ domainName: 'api.example.com', certificateArn }).customDomain?.basePath).toBeUndefined();
  });

  it('reads the public base URL of a proxy without its trailing slash', () => {
    expect(from({ publicBaseUrl: 'https://www.example.com/shop/api/' }).publicBaseUrl).toBe(
      'https://www.example.com/shop/api',
    );
  });

  it('normalizes the public base URL as the function reads it: host lower-cased, <, > and spaces encoded', () => {
    expect(from({ publicBaseUrl: 'https://WWW.Example.com:443/a b>c' }).publicBaseUrl).toBe(
      'https://www.example.com/a%20b%3Ec',
    );
  });

  const ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
  const EXTERNAL = { authIssuer: 'https://i.example.com', authAudience: 'a' };
  it.each([
    [{ dev: 'yes' }, 'dev must be true or false'],
    [{ dev: ' true' }, 'dev must be true or false, got " true"'],
    [{ sourceMaps: 'true\n' }, 'sourceMaps must be true or false, got "true\\n"'],
    [{ jwtAuthorizer: '1' }, 'jwtAuthorizer must be true or false'],
    [{ maxRequestsPerSecond: '0' }, 'maxRequestsPerSecond must be an integer from 1 to 10000'],
    [{ maxRequestsPerSecond: '10001' }, 'maxRequestsPerSecond must be an integer from 1 to 10000'],
    [{ maxRequestsPerSecond: '50.5' }, 'maxRequestsPerSecond must be an integer from 1 to 10000'],
    [{ reserveConcurrency: 'on' }, 'reserveConcurrency must be true or false'],
    [
      { reserveConcurrency: 'true', provisionedConcurrency: '26' },
      'provisionedConcurrency (26) must not exceed the reserved concurrency that maxRequestsPerSecond=100 sets (25)',
    ],
    [{ throttleRate: '50' }, 'Unknown context key "throttleRate"'],
    [{ authIssuer: 'https://issuer.example.com' }, 'authIssuer and authAudience must be given together'],
    [{ authAudience: 'api' }, 'authIssuer and authAudience must be given together'],
    [{ authIssuer: 'http://issuer.example.com', authAudience: 'api' }, 'authIssuer must be an https URL'],
    [{ authTokenUse: 'id' }, 'authJwksUri, authTokenUse and authIssuerType need authIssuer and authAudience'],
    [{ authIssuerType: 'oidc' }, 'authJwksUri, authTokenUse and authIssuerType need authIssuer and authAudience'],
    [{ ...EXTERNAL, authTokenUse: 'both' }, 'authTokenUse must be one of access, id, any'],
    [{ ...EXTERNAL, authIssuerType: 'auth0' }, 'authIssuerType must be one of cognito, oidc'],
    [{ ...EXTERNAL, accessTokenMinutes: '30' }, "accessTokenMinutes configures the stack's own user pool"],
    [{ ...EXTERNAL, authDomainPrefix: 'x' }, "authDomainPrefix configures the stack's own user pool"],
    [{ authRequiredScope: 'openid' }, 'takes "<resource server>/<scope>" scopes'],
    [{ authRequiredScope: 'plants/' }, 'takes "<resource server>/<scope>" scopes'],
    [
      { authDomainPrefix: 'acme' },
      'authDomainPrefix names the token endpoint, which only exists with authRequiredScope',
    ],
    [{ authRequiredScope: 'p/r', authDomainPrefix: 'my-cognito' }, 'authDomainPrefix must be 1-63 lower-case'],
    [{ authRequiredScope: 'p/r', authDomainPrefix: 'Acme' }, 'authDomainPrefix must be 1-63 lower-case'],
    [{ accessTokenMinutes: '4' }, 'accessTokenMinutes must be an integer from 5 to 1440'],
    [{ accessTokenMinutes: '1441' }, 'accessTokenMinutes must be an integer from 5 to 1440'],
    [{ domainName: 'api.example.com' }, 'domainName and certificateArn must be given together'],
    [{ certificateArn: ARN }, 'domainName and certificateArn must be given together'],
    [{ basePath: 'v1' }, 'basePath needs domainName and certificateArn'],
    [{ domainName: 'https://api.example.com', certificateArn: ARN }, 'domainName must be a host name'],
    [{ domainName: 'api.example.com', certificateArn: 'arn:aws:iam::1:x' }, 'certificateArn must be an ACM'],
    [{ domainName: 'api.example.com', certificateArn: ARN, basePath: 'v 1' }, 'basePath must be path segments'],
    [{ publicBaseUrl: 'http://www.example.com' }, 'publicBaseUrl must be an https URL'],
    [{ publicBaseUrl: 'https://www.example.com/?x=1' }, 'publicBaseUrl must be an https URL'],
    [{ publicBaseUrl: 'https://www.example.com/#' }, 'publicBaseUrl must be an https URL'],
    [{ publicBaseUrl: `https://www.example.com/${'植'.repeat(200)}` }, 'at most 1024 characters'],
    [{ corsOrigins: ['https://a.example.com'] }, 'corsOrigins must be a string'],
    [{ architecture: 'amd64' }, 'architecture must be one of arm64, x86_64, got "amd64"'],
    [{ memoryMb: '64' }, 'memoryMb must be an integer from 128 to 10240'],
    [{ requestLog: 'none' }, 'requestLog must be one of failures, all, got "none"'],
    [{ accessLog: 'off' }, 'accessLog must be one of lean, full'],
    [{ accessLogClass: 'delivery' }, 'accessLogClass must be one of infrequent, standard'],
    [{ tracing: 'yes' }, 'tracing must be true or false'],
    [{ systemLogLevel: 'error' }, 'systemLogLevel must be one of WARN, INFO, DEBUG'],
    [{ alarmErrorRatePercent: '0' }, 'alarmErrorRatePercent must be a number above 0 and at most 100'],
    [{ alarmMinRequests: '0' }, 'alarmMinRequests must be a positive integer'],
    [{ alarmP99Ms: '15000' }, 'alarmP99Ms must be an integer from 1 to 14999'],
    [{ deploymentStrategy: 'blue-green' }, 'deploymentStrategy must be one of canary'],
    [{ provisionedConcurrency: '-1' }, 'provisionedConcurrency must be an integer of at least 0'],
    [{ provisionedConcurrency: '2.5' }, 'provisionedConcurrency must be an integer of at least 0'],
  ])('refuses %j, naming the key', (context, message) => {
    expect(() => from(context)).toThrow(message);
  });
});

describe('unknown context keys', () => {
  it('are refused when they look like ours, with the key meant', () => {
    expect(() => from({ devv: 'true' })).toThrow('Unknown context key "devv" (did you mean "dev"?)');
    expect(() => from({ jwtAuthoriser: 'true' })).toThrow('did you mean "jwtAuthorizer"?');
    expect(() => from({ plants: '1' })).toThrow(/^Unknown context key "plants"; known keys: stackName, dev/);
  });

  it('are refused when earlier versions read them, never ignored', () => {
    expect(() => from({ logLevel: 'DEBUG' })).toThrow(/^Unknown context key "logLevel"/);
    expect(() => from({ debugSampleRate: '0.1' })).toThrow(/^Unknown context key "debugSampleRate"/);
  });

  it("are left alone when they are CDK's: feature flags, CLI settings, cached lookups", () => {
    expect(() =>
      from({
        '@aws-cdk/aws-iam:minimizePolicies': true,
        'aws:cdk:bundling-stacks': ['**'],
        'aws:cdk:enable-path-metadata': true,
        'availability-zones:account=123456789012:region=eu-west-1': ['eu-west-1a'],
        'acknowledged-issue-numbers': [32775],
      }),
    ).not.toThrow();
  });
});
