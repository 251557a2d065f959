// The stack's own Cognito user pool: a public app client, and with a required scope a machine client.

import { Aws, Duration, Fn, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  type CfnUserPoolClient,
  FeaturePlan,
  Mfa,
  OAuthScope,
  ResourceServerScope,
  UserPool,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import { COLLECTION } from '../handlers/lib/names.ts';
import type { UserPoolIdentity } from './identity-settings.ts';

export function ownUserPool(
  scope: Construct,
  settings: UserPoolIdentity,
  retain: boolean,
  removalPolicy: RemovalPolicy,
) {
  const userPool = userPoolFor(scope, retain, removalPolicy);
  const appClient: UserPoolClient = userPool.addClient('AppClient', {
    // USER_PASSWORD_AUTH lets `aws cognito-idp initiate-auth` get a token; SRP is for app SDKs.
    authFlows: { userPassword: true, userSrp: true },
    generateSecret: false,
    disableOAuth: true,
    preventUserExistenceErrors: true,
    accessTokenValidity: Duration.minutes(settings.accessTokenMinutes),
    idTokenValidity: Duration.hours(1),
  });
  const machine = settings.requiredScopes.length > 0 ? machineAccess(scope, userPool, settings) : undefined;
  return { userPool, appClient, machine };
}

function userPoolFor(scope: Construct, retain: boolean, removalPolicy: RemovalPolicy): UserPool {
  const userPool = new UserPool(scope, 'UserPool', {
    selfSignUpEnabled: false,
    signInAliases: { email: true },
    passwordPolicy: {
      minLength: 12,
      requireLowercase: true,
      requireUppercase: true,
      requireDigits: true,
      requireSymbols: true,
    },
    mfa: Mfa.OPTIONAL,
    mfaSecondFactor: { otp: true, sms: false },
    accountRecovery: AccountRecovery.EMAIL_ONLY,
    // Lite has every feature this pool uses (password sign-in, optional TOTP MFA, e-mail recovery, groups,
    // the classic hosted domain for the client-credentials grant) at about a third of Essentials per MAU.
    featurePlan: FeaturePlan.LITE,
    deletionProtection: retain,
    removalPolicy,
  });
  Validations.of(userPool).acknowledge(
    {
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is optional (TOTP) so the README can get a token with the AWS CLI alone; deployments that need ' +
        'required MFA point authIssuer at their own identity provider.',
    },
    {
      id: 'AwsSolutions-COG8',
      reason:
        'Threat protection needs the Cognito Plus feature plan ($0.02 per monthly active user, no free tier); ' +
        'the default pool is on Lite, and password policy, no self sign-up and optional TOTP cover the basics.',
    },
  );
  return userPool;
}

/** `plants/read plants/admin` → plants: [read, admin]; the identifier is all before the last `/`. */
function byResourceServer(scopes: string[]): Map<string, string[]> {
  const servers = new Map<string, string[]>();
  for (const scope of scopes) {
    const slash = scope.lastIndexOf('/');
    const identifier = scope.slice(0, slash);
    servers.set(identifier, [...(servers.get(identifier) ?? []), scope.slice(slash + 1)]);
  }
  return servers;
}

// Prefix domains are unique per region across all accounts: the stack name plus the first block of
// the stack's own UUID, without the words Cognito reserves.
function defaultDomainPrefix(scope: Construct): string {
  const name = Stack.of(scope)
    .stackName.toLowerCase()
    .replace(/aws|amazon|cognito/g, '')
    .replace(/[^a-z0-9-]/g, '')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
  const stackUuid = Fn.select(2, Fn.split('/', Aws.STACK_ID));
  return `${name || COLLECTION}-${Fn.select(0, Fn.split('-', stackUuid))}`;
}

/**
 * Tokens from initiate-auth carry only aws.cognito.signin.user.admin, so a required scope needs an OAuth grant:
 * a resource server, a domain serving /oauth2/token, and a client-credentials client for machine callers.
 */
function machineAccess(scope: Construct, userPool: UserPool, settings: UserPoolIdentity) {
  const scopes: OAuthScope[] = [];
  for (const [index, [identifier, names]] of [...byResourceServer(settings.requiredScopes)].entries()) {
    const serverScopes = names.map(
      (scopeName) => new ResourceServerScope({ scopeName, scopeDescription: 'GET /plants' }),
    );
    const server = userPool.addResourceServer(`ResourceServer${index}`, {
      identifier,
      // The name allows fewer characters than the identifier (`https://…` is a common identifier).
      userPoolResourceServerName: identifier.replace(/[^\w\s+=,.@-]/g, '-'),
      scopes: serverScopes,
    });
    scopes.push(...serverScopes.map((serverScope) => OAuthScope.resourceServer(server, serverScope)));
  }
  const domain = userPool.addDomain('Domain', {
    cognitoDomain: { domainPrefix: settings.domainPrefix ?? defaultDomainPrefix(scope) },
  });
  const client = userPool.addClient('MachineClient', {
    generateSecret: true,
    oAuth: { flows: { clientCredentials: true }, scopes },
    preventUserExistenceErrors: true,
    accessTokenValidity: Duration.minutes(settings.accessTokenMinutes),
  });
  // With no flows listed Cognito would allow SRP and custom sign-in; this client signs no users in.
  (client.node.defaultChild as CfnUserPoolClient).explicitAuthFlows = ['ALLOW_REFRESH_TOKEN_AUTH'];
  return { client, tokenEndpoint: `${domain.baseUrl()}/oauth2/token` };
}
