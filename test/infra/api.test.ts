// The API construct as synthesized: the route, stage, CORS, the optional gateway JWT authorizer and
// the optional custom domain.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { OPERATIONS, routeKeyOf } from '../../handlers/lib/operations.ts';
import { ACCESS_LOG_FORMATS } from '../../handlers/lib/telemetry-names.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';
import { onlyOf, type Resource, resourcesOf } from '../helpers/template.ts';

const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';

let plain: Synthesized;
let guarded: Synthesized;
let external: Synthesized;
let verbose: Synthesized;

beforeAll(async () => {
  plain = await synth();
  verbose = await synth({ accessLog: 'full' });
  guarded = await synth({
    jwtAuthorizer: 'true',
    authRequiredScope: 'plants/read',
    domainName: 'api.example.com',
    certificateArn: CERTIFICATE,
    basePath: '/v1/',
  });
  external = await synth({
    jwtAuthorizer: 'true',
    authIssuer: 'https://tenant.eu.auth0.com/',
    authAudience: 'https://plants.example.com,mobile',
    domainName: 'plants.example.com',
    certificateArn: CERTIFICATE,
    corsOrigins: 'https://app.example.com',
    maxRequestsPerSecond: '5',
    publicBaseUrl: 'https://www.example.com/shop/api',
  });
});

/**
 * The $context variables whose size API Gateway, our own routes or our issuer set, never the caller
 * (the HTTP API variables: API Gateway Developer Guide, "Customize HTTP API access logs"). Not here,
 * because a caller sizes them up to the 10 KB request line and headers: `path`,
 * `identity.userAgent`, `domainName`, `customDomain.basePathMatched`, `httpMethod` (any token).
 */
const BOUNDED_VARIABLES = [
  '$context.requestId', // 16 characters
  '$context.requestTime', // a CLF date
  '$context.identity.sourceIp', // an IPv4 or IPv6 address
  '$context.routeKey', // one of OPERATIONS' route keys, or "-"
  '$context.protocol', // HTTP/1.1, HTTP/2
  '$context.status',
  '$context.responseLatency',
  '$context.responseLength',
  '$context.integrationLatency',
  '$context.integrationStatus',
  '$context.error.message', // API Gateway's own messages
  '$context.integrationErrorMessage', // API Gateway's own messages
  '$context.authorizer.error', // the JWT authorizer's own messages
  '$context.authorizer.claims.sub', // a verified token's claim: our issuer's
];

/** The stack's routes: one per operation of the table. */
const routes = (s: Synthesized): Resource['Properties'][] => {
  const found = resourcesOf(s, 'AWS::ApiGatewayV2::Route').map(({ Properties }) => Properties);
  expect(found).toHaveLength(OPERATIONS.length);
  return found;
};

const accessLogFormat = (s: Synthesized): Record<string, string> =>
  JSON.parse((onlyOf(s, 'AWS::ApiGatewayV2::Stage').Properties.AccessLogSettings as { Format: string }).Format);

describe('route and stage', () => {
  it("routes each of the API's operations, and nothing else, to the function with payload format 2.0", () => {
    plain.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    const routeKeys = Object.values(plain.template.findResources('AWS::ApiGatewayV2::Route')).map(
      (route) => route.Properties.RouteKey,
    );
    expect(routeKeys.sort()).toEqual(OPERATIONS.map(routeKeyOf).sort());
    plain.template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
    });
  });

  it('throttles and access-logs the stage as one lean JSON object per request', () => {
    const stage = onlyOf(plain, 'AWS::ApiGatewayV2::Stage').Properties;
    expect(stage).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 25 },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [expect.stringMatching(/^ApiAccessLogs/), 'Arn'] } },
    });
    // What the operator's queries (docs/operations.md) and the join to the function's record read;
    // that no field is caller-sized is the test below.
    const format = JSON.parse((stage.AccessLogSettings as { Format: string }).Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      route: '$context.routeKey',
      status: '$context.status',
      latencyMs: '$context.responseLatency',
    });
  });

  it('logs the caller and why a token was refused when the gateway checks tokens', () => {
    expect(accessLogFormat(guarded)).toMatchObject({
      caller: '$context.authorizer.claims.sub',
      authorizerError: '$context.authorizer.error',
    });
    expect(accessLogFormat(verbose)).toMatchObject({ integrationLatency: '$context.integrationLatency' });
  });

  it('writes, in every access log format, no field whose size the caller chooses', async () => {
    for (const accessLog of ACCESS_LOG_FORMATS) {
      for (const jwtAuthorizer of ['false', 'true']) {
        const format = accessLogFormat(await synth({ accessLog, jwtAuthorizer }));
        // The whole format is its fields' variables, nothing else: no variable hides in a value's text.
        for (const value of Object.values(format)) expect(value).toMatch(/^\$context\.[A-Za-z.]+$/);
        const unbounded = Object.values(format).filter((variable) => !BOUNDED_VARIABLES.includes(variable));
        expect({ accessLog, jwtAuthorizer, unbounded }).toEqual({ accessLog, jwtAuthorizer, unbounded: [] });
      }
    }
  });

  it('takes throttling from the bill ceiling, -c maxRequestsPerSecond', () => {
    expect(onlyOf(external, 'AWS::ApiGatewayV2::Stage').Properties).toMatchObject({
      DefaultRouteSettings: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
    });
  });

  it("has no CORS unless origins are given, then allows the operations' methods and exposes Link", () => {
    expect(onlyOf(plain, 'AWS::ApiGatewayV2::Api').Properties.CorsConfiguration).toBeUndefined();
    expect(onlyOf(external, 'AWS::ApiGatewayV2::Api').Properties.CorsConfiguration).toEqual({
      AllowOrigins: ['https://app.example.com'],
      AllowMethods: [...new Set(OPERATIONS.map(({ method }) => method))],
      AllowHeaders: ['authorization'],
      ExposeHeaders: ['link'],
      MaxAge: 3600,
    });
  });
});

describe('JWT authorizer', () => {
  it('is off by default: the route is open to the gateway and the function checks the token', () => {
    plain.template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
    for (const route of routes(plain)) expect(route.AuthorizationType).toBe('NONE');
  });

  it('checks the own pool’s issuer, both client ids and the required scope on every route', () => {
    guarded.template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Issuer: { 'Fn::GetAtt': [Match.stringLikeRegexp('^IdentityUserPool'), 'ProviderURL'] },
        Audience: [
          { Ref: Match.stringLikeRegexp('^IdentityUserPoolAppClient') },
          { Ref: Match.stringLikeRegexp('^IdentityUserPoolMachineClient') },
        ],
      },
    });
    for (const route of routes(guarded)) {
      expect(route).toMatchObject({
        AuthorizationType: 'JWT',
        AuthorizerId: { Ref: expect.stringMatching(/^ApiHttpApiJwtAuthorizer/) },
        AuthorizationScopes: ['plants/read'],
      });
    }
  });

  it('checks an external issuer and its audiences, with no scopes when none is required', () => {
    external.template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      JwtConfiguration: {
        Issuer: 'https://tenant.eu.auth0.com/',
        Audience: ['https://plants.example.com', 'mobile'],
      },
    });
    for (const route of routes(external)) expect(route.AuthorizationScopes).toBeUndefined();
  });

  it('leaves the function verifying the token as well (defence in depth)', () => {
    const fn = onlyOf(guarded, 'AWS::Lambda::Function').Properties;
    expect(fn.Environment).toMatchObject({
      Variables: { AUTH_TOKEN_USE: 'access', AUTH_REQUIRED_SCOPE: 'plants/read' },
    });
  });
});

describe('custom domain', () => {
  it('is absent by default', () => {
    plain.template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    plain.template.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 0);
  });

  it('is a regional TLS 1.2 domain name with the given certificate, mapped to the stage under basePath', () => {
    guarded.template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'api.example.com',
      DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
    });
    guarded.template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', {
      ApiId: { Ref: Match.stringLikeRegexp('^ApiHttpApi') },
      DomainName: { Ref: Match.stringLikeRegexp('^ApiDomainName') },
      Stage: '$default',
      ApiMappingKey: 'v1',
    });
  });

  it('maps the whole domain when no basePath is given', () => {
    expect(onlyOf(external, 'AWS::ApiGatewayV2::ApiMapping').Properties.ApiMappingKey).toBeUndefined();
  });

  it("gives the function the domain's URL, mapping key included, as the base of its next links", () => {
    const environment = (s: Synthesized) =>
      (onlyOf(s, 'AWS::Lambda::Function').Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(environment(guarded).PUBLIC_BASE_URL).toBe('https://api.example.com/v1');
    // A proxy in front (publicBaseUrl) is what clients use, custom domain or not.
    expect(environment(external).PUBLIC_BASE_URL).toBe('https://www.example.com/shop/api');
    expect(environment(plain).PUBLIC_BASE_URL).toBeUndefined();
  });

  it('outputs the custom URL and the DNS target to point the name at', () => {
    expect(guarded.template.findOutputs('CustomDomainUrl').CustomDomainUrl?.Value).toBe('https://api.example.com/v1/');
    expect(external.template.findOutputs('CustomDomainUrl').CustomDomainUrl?.Value).toBe('https://plants.example.com/');
    // Behind a proxy the links lead there, custom domain or not: the URL the smoke check walks.
    expect(external.template.findOutputs('PublicBaseUrl').PublicBaseUrl?.Value).toBe(
      'https://www.example.com/shop/api/',
    );
    expect(guarded.template.findOutputs('PublicBaseUrl')).toEqual({});
    expect(guarded.template.findOutputs('DomainTarget').DomainTarget?.Value).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^ApiDomainName/), 'RegionalDomainName'],
    });
    expect(guarded.template.findOutputs('DomainHostedZoneId').DomainHostedZoneId?.Value).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^ApiDomainName/), 'RegionalHostedZoneId'],
    });
  });
});
