// The identity construct as synthesized: the user pool and its clients, a required scope with the
// stack's own pool (resource server, domain, machine client), token lifetime, and external issuers.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { type Synthesized, synth } from '../helpers/cdk.ts';
import { resourcesOf } from '../helpers/template.ts';

let plain: Synthesized;
let scoped: Synthesized;
let external: Synthesized;

beforeAll(async () => {
  plain = await synth();
  scoped = await synth({
    authRequiredScope: 'plants/read plants/admin https://api.example.com/plants.read',
    accessTokenMinutes: '15',
    authDomainPrefix: 'acme-plants',
  });
  external = await synth({
    authIssuer: 'https://tenant.eu.auth0.com/',
    authAudience: 'https://plants.example.com,mobile',
    authIssuerType: 'oidc',
    authGroupsClaim: 'https://plants.example.com/groups',
    authRequiredScope: 'read:plants',
  });
});

const environment = (s: Synthesized): Record<string, unknown> => {
  const [fn] = resourcesOf(s, 'AWS::Lambda::Function');
  return (fn?.Properties.Environment as { Variables: Record<string, unknown> } | undefined)?.Variables ?? {};
};
const clientRef = (name: string) => ({ Ref: expect.stringMatching(new RegExp(`^IdentityUserPool${name}`)) });

describe('the stack’s own user pool', () => {
  it('has no self sign-up and a public app client that signs users in with a password, OAuth off', () => {
    plain.template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      DeletionProtection: 'ACTIVE',
    });
    plain.template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    plain.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlowsUserPoolClient: false,
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH']),
    });
    expect(Object.values(plain.template.findResources('AWS::Cognito::UserPool'))[0]?.DeletionPolicy).toBe(
      'RetainExceptOnCreate',
    );
  });

  it('issues access tokens for an hour by default', () => {
    plain.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      AccessTokenValidity: 60,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes' }),
    });
  });

  it('has no resource server, domain or machine client without a required scope', () => {
    plain.template.resourceCountIs('AWS::Cognito::UserPoolResourceServer', 0);
    plain.template.resourceCountIs('AWS::Cognito::UserPoolDomain', 0);
    expect(environment(plain).AUTH_REQUIRED_SCOPE).toBeUndefined();
  });
});

describe('a required scope with the own pool', () => {
  it('defines the scopes on one resource server per identifier', () => {
    scoped.template.resourceCountIs('AWS::Cognito::UserPoolResourceServer', 2);
    scoped.template.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Identifier: 'plants',
      Scopes: [Match.objectLike({ ScopeName: 'read' }), Match.objectLike({ ScopeName: 'admin' })],
    });
    scoped.template.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Identifier: 'https://api.example.com',
      Scopes: [Match.objectLike({ ScopeName: 'plants.read' })],
    });
  });

  it('adds a domain for the token endpoint, named by authDomainPrefix', () => {
    scoped.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-plants' });
    expect(scoped.template.findOutputs('TokenEndpoint').TokenEndpoint?.Value).toEqual({
      'Fn::Join': [
        '',
        [
          'https://',
          { Ref: expect.stringMatching(/^IdentityUserPoolDomain/) },
          '.auth.',
          { Ref: 'AWS::Region' },
          '.amazoncognito.com/oauth2/token',
        ],
      ],
    });
  });

  it('names the default domain after the stack and its own id, unique per region', async () => {
    const [domain] = resourcesOf(await synthScopedWithoutPrefix(), 'AWS::Cognito::UserPoolDomain');
    expect(JSON.stringify(domain?.Properties.Domain)).toMatch(/^\{"Fn::Join":\["",\["plantstore-",.*AWS::StackId/);
  });

  it('adds a confidential client allowed only the client-credentials grant, for exactly those scopes', () => {
    scoped.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: true,
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['client_credentials'],
      AllowedOAuthScopes: [
        { 'Fn::Join': ['', [{ Ref: Match.stringLikeRegexp('^IdentityUserPoolResourceServer0') }, '/read']] },
        { 'Fn::Join': ['', [{ Ref: Match.stringLikeRegexp('^IdentityUserPoolResourceServer0') }, '/admin']] },
        { 'Fn::Join': ['', [{ Ref: Match.stringLikeRegexp('^IdentityUserPoolResourceServer1') }, '/plants.read']] },
      ],
      // No user sign-in through this client.
      ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
      AccessTokenValidity: 15,
    });
  });

  it('lets the function accept both clients and require one of the scopes', () => {
    expect(environment(scoped)).toMatchObject({
      AUTH_AUDIENCE: { 'Fn::Join': ['', [clientRef('AppClient'), ',', clientRef('MachineClient')]] },
      AUTH_REQUIRED_SCOPE: 'plants/read plants/admin https://api.example.com/plants.read',
      AUTH_TOKEN_USE: 'access',
    });
  });

  it('takes the access token lifetime from accessTokenMinutes for both clients', () => {
    const lifetimes = resourcesOf(scoped, 'AWS::Cognito::UserPoolClient').map((c) => c.Properties.AccessTokenValidity);
    expect(lifetimes).toEqual([15, 15]);
  });
});

describe('an external issuer', () => {
  it('creates no Cognito resources and passes issuer, audiences, type, groups claim and scope on', () => {
    external.template.resourceCountIs('AWS::Cognito::UserPool', 0);
    external.template.resourceCountIs('AWS::Cognito::UserPoolClient', 0);
    expect(environment(external)).toMatchObject({
      AUTH_ISSUER: 'https://tenant.eu.auth0.com/',
      AUTH_AUDIENCE: 'https://plants.example.com,mobile',
      AUTH_ISSUER_TYPE: 'oidc',
      AUTH_GROUPS_CLAIM: 'https://plants.example.com/groups',
      AUTH_REQUIRED_SCOPE: 'read:plants',
    });
    expect(environment(external).AUTH_TOKEN_USE).toBeUndefined();
  });
});

const synthScopedWithoutPrefix = (): Promise<Synthesized> => synth({ authRequiredScope: 'plants/read' });
