// Stands in for @aws-sdk/credential-provider-node in the Lambda bundle (see scripts/env-credentials.ts):
// credentials from the environment, as Lambda provides them, and nothing else shipped.

import { createRequire } from 'node:module';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@aws-sdk/types';

type DefaultProvider = (init?: object) => AwsCredentialIdentityProvider;

/**
 * The SDK's default credential provider, reduced to its first link (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN). Off Lambda, a process without those variables falls
 * back to the full default chain (profiles, SSO, container and instance metadata), loaded from
 * node_modules or NODE_PATH at that moment rather than shipped in the bundle.
 */
export const defaultProvider: DefaultProvider = (init) => {
  let fullChain: AwsCredentialIdentityProvider | undefined;
  return async (options) => {
    const fromEnvironment = environmentCredentials(process.env);
    if (fromEnvironment) return fromEnvironment;
    fullChain ??= loadFullChain()(init);
    return fullChain(options);
  };
};

function environmentCredentials(env: NodeJS.ProcessEnv): AwsCredentialIdentity | undefined {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if (!accessKeyId || !secretAccessKey) return undefined;
  const { AWS_SESSION_TOKEN: sessionToken, AWS_CREDENTIAL_EXPIRATION: expiration } = env;
  return {
    accessKeyId,
    secretAccessKey,
    ...(sessionToken && { sessionToken }),
    ...(expiration && { expiration: new Date(expiration) }),
  };
}

// A runtime require that esbuild leaves alone: the package is resolved where the bundle runs.
function loadFullChain(): DefaultProvider {
  const require = createRequire(import.meta.url);
  return (require('@aws-sdk/credential-provider-node') as { defaultProvider: DefaultProvider }).defaultProvider;
}
