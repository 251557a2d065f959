// Who may call: the stack's own Cognito user pool or an external issuer, and what tokens are checked against.

import type { RemovalPolicy } from 'aws-cdk-lib';
import type { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { functionEnvironment } from '../handlers/lib/environment.ts';
import type { IdentitySettings } from './identity-settings.ts';
import { ownUserPool } from './user-pool.ts';

export interface IdentityProps {
  settings: IdentitySettings;
  /** Production keeps its users; a dev pool goes with the stack. */
  retain: boolean;
  removalPolicy: RemovalPolicy;
}

export class Identity extends Construct {
  readonly issuer: string;
  /** Accepted audiences: `aud`, or for Cognito access tokens the app client ids (`client_id`). */
  readonly audience: string[];
  readonly requiredScopes: string[];
  readonly environment: Record<string, string>;
  readonly userPool?: UserPool;
  readonly appClient?: UserPoolClient;
  /** Confidential client for the client-credentials grant; only with required scopes. */
  readonly machineClient?: UserPoolClient;
  readonly tokenEndpoint?: string;

  constructor(scope: Construct, id: string, { settings, retain, removalPolicy }: IdentityProps) {
    super(scope, id);
    this.requiredScopes = settings.requiredScopes;
    // What is unset here keeps the function's default (functionEnvironment writes only what is set).
    const shared = {
      requiredScope: settings.requiredScopes.length > 0 ? settings.requiredScopes : undefined,
      groupsClaim: settings.groupsClaim,
    };
    if (settings.source === 'external') {
      const { issuer, audience, jwksUri, tokenUse, issuerType } = settings;
      this.issuer = issuer;
      this.audience = audience;
      this.environment = functionEnvironment({ auth: { issuer, audience, jwksUri, tokenUse, issuerType, ...shared } });
      return;
    }

    const { userPool, appClient, machine } = ownUserPool(this, settings, retain, removalPolicy);
    this.userPool = userPool;
    this.appClient = appClient;
    this.machineClient = machine?.client;
    this.tokenEndpoint = machine?.tokenEndpoint;
    this.issuer = userPool.userPoolProviderUrl;
    this.audience = [appClient.userPoolClientId, ...(machine ? [machine.client.userPoolClientId] : [])];
    this.environment = functionEnvironment({
      // Cognito access tokens name the app client in `client_id`; the function checks it there.
      auth: { issuer: this.issuer, audience: this.audience, tokenUse: 'access', ...shared },
    });
  }
}
