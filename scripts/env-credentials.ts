// esbuild plugin: the bundle's AWS SDK clients read credentials from the environment only.
//
// The SDK's runtime config imports @aws-sdk/credential-provider-node statically, so passing explicit
// credentials does not let esbuild drop it: the default chain (INI files, SSO, process, STS web
// identity, sign-in, container and instance metadata) is ~100 KB of the bundle and of every cold
// start, and on Lambda only its first link ever runs, because Lambda puts the function role's
// credentials in the environment. Replacing the package at build time is the only way to drop it.

import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const SHIM = fileURLToPath(new URL('../handlers/lib/credentials-from-env.ts', import.meta.url));

export const envCredentials: Plugin = {
  name: 'env-credentials',
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, () => ({ path: SHIM }));
  },
};
