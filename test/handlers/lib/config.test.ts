import { describe, expect, it } from '@jest/globals';
import { ConfigError, readConfig } from '../../../handlers/lib/config.ts';
import { ENV } from '../../../handlers/lib/environment.ts';
import { MINIMAL_FUNCTION_ENV } from '../../helpers/function-env.ts';

const base = MINIMAL_FUNCTION_ENV;

describe('readConfig', () => {
  it('applies the documented defaults', () => {
    const config = readConfig(base);
    expect(config.maxPageSize).toBe(100);
    expect(config.dynamodbEndpoint).toBeUndefined();
    expect(config.publicBaseUrl).toBeUndefined();
    expect(config.requestContextFromApiGateway).toBe(true);
    expect(config.auth).toEqual({
      issuer: 'https://issuer.example.com/',
      audience: ['api://plants'],
      tokenUse: 'not-id',
      maxTokenLifetime: 86400,
      jwksUri: 'https://issuer.example.com/.well-known/jwks.json',
      jwksTimeoutMs: 1500,
      requiredScope: undefined,
      issuerType: 'oidc',
      groupsClaim: undefined,
      tokenHeader: 'authorization',
    });
    expect(config.dynamodbDeadlineMs).toBe(3000);
    expect(config.publicHostHeader).toBeUndefined();
  });

  it('recognises a Cognito user pool issuer and then expects access tokens', () => {
    const config = readConfig({
      ...base,
      AUTH_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123',
      AUTH_AUDIENCE: 'client-a, client-b',
    });
    expect(config.auth.issuerType).toBe('cognito');
    expect(config.auth.tokenUse).toBe('access');
    expect(config.auth.audience).toEqual(['client-a', 'client-b']);
    expect(config.auth.groupsClaim).toBe('cognito:groups');
  });

  it('recognises the issuer of a user pool with multi-Region replication', () => {
    const config = readConfig({
      ...base,
      AUTH_ISSUER: 'https://issuer-cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123',
    });
    expect(config.auth.issuerType).toBe('cognito');
  });

  it('takes the issuer type and groups claim from the environment when given', () => {
    const cognitoShaped = readConfig({
      ...base,
      AUTH_ISSUER: 'http://localhost:3000',
      AUTH_ISSUER_TYPE: 'cognito',
      AUTH_JWKS_URI: 'https://localhost:3001/jwks.json',
    });
    expect(cognitoShaped.auth.issuerType).toBe('cognito');
    expect(cognitoShaped.auth.groupsClaim).toBe('cognito:groups');
    const oidc = readConfig({ ...base, AUTH_GROUPS_CLAIM: 'groups' });
    expect(oidc.auth.groupsClaim).toBe('groups');
    const noSharing = readConfig({ ...base, AUTH_ISSUER_TYPE: 'cognito', AUTH_GROUPS_CLAIM: 'none' });
    expect(noSharing.auth.groupsClaim).toBeUndefined();
  });

  it('refuses an unknown AUTH_ISSUER_TYPE', () => {
    expect(() => readConfig({ ...base, AUTH_ISSUER_TYPE: 'saml' })).toThrow(/AUTH_ISSUER_TYPE/);
  });

  it('reads the optional settings', () => {
    const config = readConfig({
      ...base,
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      MAX_PAGE_SIZE: '50',
      AUTH_TOKEN_USE: 'id',
      AUTH_JWKS_URI: 'https://keys.example.com/jwks',
      AUTH_REQUIRED_SCOPE: 'plants:read  plants:admin',
    });
    expect(config.dynamodbEndpoint).toBe('http://127.0.0.1:8000');
    expect(config.maxPageSize).toBe(50);
    expect(config.auth.tokenUse).toBe('id');
    expect(config.auth.jwksUri).toBe('https://keys.example.com/jwks');
    expect(config.auth.requiredScope).toEqual(['plants:read', 'plants:admin']);
  });

  it.each(['PLANTS_TABLE_NAME', 'AUTH_ISSUER', 'AUTH_AUDIENCE'])('names %s when it is missing', (name) => {
    const env: Record<string, string> = { ...base, [name]: ' ' };
    expect(() => readConfig(env)).toThrow(new ConfigError(`Missing required environment variable ${name}`));
  });

  it.each(['0', '-5', '1.5', 'lots', '10001', '2147483648'])('refuses MAX_PAGE_SIZE=%s', (value) => {
    expect(() => readConfig({ ...base, MAX_PAGE_SIZE: value })).toThrow(/MAX_PAGE_SIZE/);
  });

  it('refuses an unknown AUTH_TOKEN_USE', () => {
    expect(() => readConfig({ ...base, AUTH_TOKEN_USE: 'refresh' })).toThrow(/AUTH_TOKEN_USE/);
  });

  it('accepts AUTH_TOKEN_USE=any as the explicit opt-out from refusing ID tokens', () => {
    expect(readConfig({ ...base, AUTH_TOKEN_USE: 'any' }).auth.tokenUse).toBe('any');
  });

  it('reads AUTH_MAX_TOKEN_LIFETIME in seconds', () => {
    expect(readConfig({ ...base, AUTH_MAX_TOKEN_LIFETIME: '3600' }).auth.maxTokenLifetime).toBe(3600);
  });

  it.each(['0', '59', '1h', '1.5', '2592001'])('refuses AUTH_MAX_TOKEN_LIFETIME=%s', (value) => {
    expect(() => readConfig({ ...base, AUTH_MAX_TOKEN_LIFETIME: value })).toThrow(/AUTH_MAX_TOKEN_LIFETIME/);
  });

  it.each([
    ['an http AUTH_JWKS_URI', { AUTH_JWKS_URI: 'http://keys.example.com/jwks' }],
    ['a relative AUTH_JWKS_URI', { AUTH_JWKS_URI: '/jwks.json' }],
    ['an http issuer without AUTH_JWKS_URI', { AUTH_ISSUER: 'http://issuer.example.com' }],
  ])('refuses %s at cold start, naming AUTH_JWKS_URI (keys are fetched over https only)', (_, env) => {
    expect(() => readConfig({ ...base, ...env })).toThrow(/AUTH_JWKS_URI must be an https URL/);
  });

  it.each([
    ['https://API.Example.com:443/v1', 'https://api.example.com/v1'],
    ['https://api.example.com/a b/', 'https://api.example.com/a%20b'],
    [
      'https://api.example.com/x>; rel="next", <https://evil.example',
      'https://api.example.com/x%3E;%20rel=%22next%22,%20%3Chttps://evil.example',
    ],
  ])('reads PUBLIC_BASE_URL=%s as the URL a Link header can carry whole: %s', (value, expected) => {
    expect(readConfig({ ...base, PUBLIC_BASE_URL: value }).publicBaseUrl).toBe(expected);
  });

  it('reads PUBLIC_BASE_URL without its trailing slash', () => {
    expect(readConfig({ ...base, PUBLIC_BASE_URL: 'https://api.example.com/v1/' }).publicBaseUrl).toBe(
      'https://api.example.com/v1',
    );
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:4000/', 'http://[::1]:3000'])(
    'accepts PUBLIC_BASE_URL=%s: plain http on loopback, for the local server',
    (value) => {
      expect(readConfig({ ...base, PUBLIC_BASE_URL: value }).publicBaseUrl).toBe(value.replace(/\/$/, ''));
    },
  );

  it('keeps group reads 5 s in at most 16 MiB unless told otherwise, and 0 turns the cache off', () => {
    expect(readConfig(base).groupCache).toEqual({ ttlSeconds: 5, maxBytes: 16 * 2 ** 20 });
    const set = readConfig({ ...base, GROUP_CACHE_TTL_SECONDS: ' 30 ', GROUP_CACHE_MAX_BYTES: '1048576' });
    expect(set.groupCache).toEqual({ ttlSeconds: 30, maxBytes: 1048576 });
    expect(readConfig({ ...base, GROUP_CACHE_TTL_SECONDS: '0' }).groupCache.ttlSeconds).toBe(0);
  });

  it.each([
    ['GROUP_CACHE_TTL_SECONDS', '-1'],
    ['GROUP_CACHE_TTL_SECONDS', '1.5'],
    ['GROUP_CACHE_TTL_SECONDS', '3601'],
    ['GROUP_CACHE_MAX_BYTES', '16MB'],
    ['GROUP_CACHE_MAX_BYTES', String(2 ** 40)],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => readConfig({ ...base, [name]: value })).toThrow(new RegExp(`^${name} must be an integer from 0 to`));
  });

  it('takes the DynamoDB deadline and the JWKS fetch timeout in milliseconds, within their ranges', () => {
    const set = readConfig({ ...base, DYNAMODB_DEADLINE_MS: '10000', AUTH_JWKS_TIMEOUT_MS: '4000' });
    expect([set.dynamodbDeadlineMs, set.auth.jwksTimeoutMs]).toEqual([10000, 4000]);
  });

  it.each([
    ['DYNAMODB_DEADLINE_MS', '99', 'an integer from 100 to 60000 (milliseconds)'],
    ['DYNAMODB_DEADLINE_MS', '60001', 'an integer from 100 to 60000 (milliseconds)'],
    ['DYNAMODB_DEADLINE_MS', '3s', 'an integer from 100 to 60000 (milliseconds)'],
    ['AUTH_JWKS_TIMEOUT_MS', '30001', 'an integer from 100 to 30000 (milliseconds)'],
  ])('refuses %s=%s: %s', (name, value, range) => {
    expect(() => readConfig({ ...base, [name]: value })).toThrow(`${name} must be ${range}, got "${value}"`);
  });

  it('takes the headers a front sets (the token, the public host) by name, lower-cased as events carry them', () => {
    const set = readConfig({ ...base, AUTH_TOKEN_HEADER: 'X-Caller-Token', PUBLIC_HOST_HEADER: 'X-Front-Host' });
    expect([set.auth.tokenHeader, set.publicHostHeader]).toEqual(['x-caller-token', 'x-front-host']);
  });

  it.each([
    ['AUTH_TOKEN_HEADER', 'x caller'],
    ['AUTH_TOKEN_HEADER', 'x-token:'],
    ['PUBLIC_HOST_HEADER', 'x-host\r\nset-cookie'],
  ])('refuses %s=%j, which names no header', (name, value) => {
    expect(() => readConfig({ ...base, [name]: value })).toThrow(new RegExp(`^${name} must be an HTTP header name`));
  });

  it('knows when sam local, not API Gateway, made the event (AWS_SAM_LOCAL)', () => {
    expect(readConfig({ ...base, AWS_SAM_LOCAL: 'true' }).requestContextFromApiGateway).toBe(false);
  });

  it.each([
    'http://api.example.com',
    'http://localhost.example.com',
    'http://10.0.0.7:3000',
    'api.example.com/v1',
    'https://api.example.com/v1?x=1',
    'https://api.example.com/#top',
    'https://user:pw@api.example.com',
    `https://api.example.com/${'a'.repeat(1024)}`,
    // An empty query or fragment: every link would be a request for the base itself.
    'https://api.example.com/v1?',
    'https://api.example.com/v1#',
    // Short as typed, 9 times longer once percent-encoded: the encoded length is what links carry.
    `https://api.example.com/${'植'.repeat(200)}`,
  ])('refuses PUBLIC_BASE_URL=%s, naming it', (value) => {
    expect(() => readConfig({ ...base, PUBLIC_BASE_URL: value })).toThrow(/PUBLIC_BASE_URL must be an https URL/);
  });

  it.each([
    ['https://dynamodb.example.com', undefined],
    ['http://127.0.0.1:8000', undefined],
    ['http://localhost:8000', undefined],
    ['http://[::1]:8000', undefined],
    // sam local's container reaches the host's dynalite through Docker's host name.
    ['http://host.docker.internal:8000', 'true'],
  ])('accepts DYNAMODB_ENDPOINT=%s (AWS_SAM_LOCAL=%s)', (value, samLocal) => {
    expect(readConfig({ ...base, DYNAMODB_ENDPOINT: value, AWS_SAM_LOCAL: samLocal }).dynamodbEndpoint).toBe(value);
  });

  it.each(['http://dynamodb.example.com', 'http://10.0.0.7:8000', 'http://host.docker.internal:8000', 'dynamodb'])(
    'refuses DYNAMODB_ENDPOINT=%s: every request carries the session token, so http only on loopback',
    (value) => {
      expect(() => readConfig({ ...base, DYNAMODB_ENDPOINT: value })).toThrow(
        /^DYNAMODB_ENDPOINT must be an https URL/,
      );
    },
  );

  it('reads the Region and DynamoDB endpoint variants as the SDK would, for the client to be given', () => {
    expect(readConfig(base).aws).toEqual({ region: undefined, useFipsEndpoint: false, useDualstackEndpoint: false });
    const env = {
      ...base,
      AWS_REGION: 'eu-west-1',
      AWS_USE_FIPS_ENDPOINT: 'true',
      AWS_USE_DUALSTACK_ENDPOINT: 'false',
    };
    expect(readConfig(env).aws).toEqual({ region: 'eu-west-1', useFipsEndpoint: true, useDualstackEndpoint: false });
    expect(() => readConfig({ ...base, AWS_USE_DUALSTACK_ENDPOINT: 'yes' })).toThrow(
      'AWS_USE_DUALSTACK_ENDPOINT must be true or false, got "yes"',
    );
  });

  // The SDK's rule for its own boolean variables (@smithy/core's booleanSelector): nothing is trimmed.
  it.each([ENV.useFipsEndpoint, ENV.useDualstackEndpoint, ENV.metricsDisabled, ENV.dev, ENV.traceEnabled])(
    'reads %s as exactly true or false, refusing anything else with its name',
    (name) => {
      expect(() => readConfig({ ...base, [name]: 'false' })).not.toThrow();
      expect(() => readConfig({ ...base, [name]: '' })).not.toThrow();
      for (const value of [' true', 'true\n', 'false ', 'TRUE', '1']) {
        expect(() => readConfig({ ...base, [name]: value })).toThrow(
          new ConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`),
        );
      }
    },
  );

  it('reads the telemetry switches: metrics off, records indented', () => {
    expect(readConfig(base).telemetry).toMatchObject({ metrics: true, pretty: false });
    const env = { ...base, [ENV.metricsDisabled]: 'true', [ENV.dev]: 'true' };
    expect(readConfig(env).telemetry).toMatchObject({ metrics: false, pretty: true });
  });

  it('refuses FIPS or dual-stack with a custom endpoint at cold start (the SDK would at the first call)', () => {
    expect(() =>
      readConfig({ ...base, DYNAMODB_ENDPOINT: 'https://dynamodb.example.com', AWS_USE_FIPS_ENDPOINT: 'true' }),
    ).toThrow('AWS_USE_FIPS_ENDPOINT cannot apply to DYNAMODB_ENDPOINT');
  });
});
