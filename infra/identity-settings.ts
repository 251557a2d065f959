// Who issues the tokens, read from context: the stack's own user pool, or an external OIDC issuer.

import { list } from '../handlers/lib/environment.ts';
import { type ContextReader, httpsUrl, integer, oneOf, SettingsError, text } from './context-values.ts';

export type IdentitySettings = UserPoolIdentity | ExternalIdentity;

/** Each by its `-c auth…` key (docs/deploy.md). */
interface CommonIdentity {
  requiredScopes: string[];
  groupsClaim: string | undefined;
}

export interface UserPoolIdentity extends CommonIdentity {
  source: 'userPool';
  accessTokenMinutes: number;
  domainPrefix: string | undefined;
}

export interface ExternalIdentity extends CommonIdentity {
  source: 'external';
  issuer: string;
  audience: string[];
  jwksUri: string | undefined;
  tokenUse: 'access' | 'id' | 'any' | undefined;
  issuerType: 'cognito' | 'oidc' | undefined;
}

const DEFAULT_ACCESS_TOKEN_MINUTES = 60;
// Cognito's own limits on an app client's access token validity.
const MIN_ACCESS_TOKEN_MINUTES = 5;
const MAX_ACCESS_TOKEN_MINUTES = 24 * 60;
// Cognito's resource-server scope syntax: `<identifier>/<name>`, no spaces, quotes or backslashes.
const RESOURCE_SERVER_SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,256}\/[\x21\x23-\x2E\x30-\x5B\x5D-\x7E]{1,256}$/;
// Cognito prefix domains: lower-case letters, digits and inner hyphens, without reserved words.
const DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const RESERVED_IN_PREFIX = /aws|amazon|cognito/;

export function readIdentity(context: ContextReader): IdentitySettings {
  const common: CommonIdentity = {
    requiredScopes: list(text(context, 'authRequiredScope'), /\s+/),
    groupsClaim: text(context, 'authGroupsClaim'),
  };
  const external = readExternal(context, common);
  const accessTokenMinutes = text(context, 'accessTokenMinutes');
  const domainPrefix = text(context, 'authDomainPrefix');
  if (external) {
    for (const [key, value] of Object.entries({ accessTokenMinutes, authDomainPrefix: domainPrefix })) {
      if (value !== undefined) {
        throw new SettingsError(`${key} configures the stack's own user pool; with authIssuer set it at your issuer`);
      }
    }
    return external;
  }
  for (const scope of common.requiredScopes) {
    if (!RESOURCE_SERVER_SCOPE.test(scope)) {
      throw new SettingsError(
        `authRequiredScope with the stack's own user pool takes "<resource server>/<scope>" scopes (e.g. ` +
          `plants/read) that its machine client is granted, got "${scope}"; for other scopes use authIssuer`,
      );
    }
  }
  if (domainPrefix !== undefined) {
    if (common.requiredScopes.length === 0) {
      throw new SettingsError('authDomainPrefix names the token endpoint, which only exists with authRequiredScope');
    }
    if (!DOMAIN_PREFIX.test(domainPrefix) || RESERVED_IN_PREFIX.test(domainPrefix)) {
      throw new SettingsError(
        `authDomainPrefix must be 1-63 lower-case letters, digits and inner hyphens without "aws", "amazon" ` +
          `or "cognito", got "${domainPrefix}"`,
      );
    }
  }
  return {
    ...common,
    source: 'userPool',
    accessTokenMinutes: integer(
      context,
      'accessTokenMinutes',
      DEFAULT_ACCESS_TOKEN_MINUTES,
      MIN_ACCESS_TOKEN_MINUTES,
      MAX_ACCESS_TOKEN_MINUTES,
    ),
    domainPrefix,
  };
}

function readExternal(context: ContextReader, common: CommonIdentity): ExternalIdentity | undefined {
  const issuer = text(context, 'authIssuer');
  const audience = text(context, 'authAudience');
  const jwksUri = text(context, 'authJwksUri');
  const tokenUse = oneOf(context, 'authTokenUse', ['access', 'id', 'any'] as const);
  const issuerType = oneOf(context, 'authIssuerType', ['cognito', 'oidc'] as const);
  if (issuer === undefined && audience === undefined) {
    if (jwksUri !== undefined || tokenUse !== undefined || issuerType !== undefined) {
      throw new SettingsError('authJwksUri, authTokenUse and authIssuerType need authIssuer and authAudience');
    }
    return undefined;
  }
  if (issuer === undefined || audience === undefined) {
    throw new SettingsError('authIssuer and authAudience must be given together');
  }
  httpsUrl('authIssuer', issuer);
  if (jwksUri !== undefined) httpsUrl('authJwksUri', jwksUri);
  return { ...common, source: 'external', issuer, audience: list(audience), jwksUri, tokenUse, issuerType };
}
