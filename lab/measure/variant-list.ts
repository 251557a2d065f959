// bench:variants' levers, each a change to the production build or to how it runs, measured
// against production in the same run (variants.ts); the DynamoDB clients replace
// handlers/lib/dynamodb-client.ts (the SDK's document client) with an entry of their own.

import { SOURCE_MAPS_NODE_OPTIONS } from '../../infra/function-runtime.ts';
import { envCredentials } from '../../scripts/env-credentials.ts';
import { benchDir } from '../config.ts';
import { type BuildChange, ENTRIES, withEntry, withPlugin } from '../harness/bundles.ts';
import type { FunctionEnvOptions } from '../harness/environment.ts';
import { replaceModule } from '../harness/stub-packages.ts';

export interface Variant {
  /** How its build differs from production's (harness/bundles.ts). */
  build?: BuildChange;
  env?: FunctionEnvOptions & { nodeOptions?: string };
  /** Node's compile cache beside the bundle, written by one unrecorded run of the same Node. */
  compileCache?: boolean;
  /** The issuer's JWKS handed to the function (BENCH_DELIVERED_JWKS), its JWKS URL unreachable. */
  deliveredJwks?: boolean;
  /** Changes the request path: warm latency and CPU per request against production's (variants-warm.ts). */
  warm?: boolean;
}

/** The function with another DynamoDB client behind plants.ts's PlantsClient (lab/entries/). */
const dynamodbClient = (file: string): Variant => ({
  build: withPlugin(replaceModule(/\/dynamodb-client\.ts$/, `${benchDir}entries/${file}`)),
  warm: true,
});

/** The hand-written client of issues 36 to 41: what the SDK's figures are held against (bench:profile too). */
export const YARDSTICK = 'DynamoDB client: hand-written SigV4 over node:https (issues 36 to 41, the yardstick)';

/** Where the "JWKS delivered" variant's JWKS URL points: nothing listens, so a fetch would fail the run. */
export const UNREACHABLE_JWKS_URI = 'https://127.0.0.1:9/.well-known/jwks.json';

export const VARIANTS: Record<string, Variant> = {
  production: {},
  // The same build measured as if it were a variant: its difference from production is the noise.
  'control: production again (A vs A)': { warm: true },
  [YARDSTICK]: dynamodbClient('hand-written/dynamodb-client.ts'),
  'DynamoDB client: @aws-lite/client + @aws-lite/dynamodb': dynamodbClient('dynamodb-aws-lite.ts'),
  'no init warm-up (JWKS and DynamoDB connection on the first request)': {
    build: withPlugin(replaceModule(/\/warm-up\.ts$/, `${benchDir}entries/no-warm-up.ts`)),
  },
  "full default credential chain (the SDK's credential-provider-node)": {
    build: (production) => ({ ...production, plugins: production.plugins.filter((p) => p !== envCredentials) }),
  },
  'no code splitting (one file)': { build: (production) => ({ ...production, splitting: false }) },
  'source maps loaded (-c sourceMaps=true: --enable-source-maps)': { env: { nodeOptions: SOURCE_MAPS_NODE_OPTIONS } },
  'tracing on (Tracer and aws-xray-sdk-core loaded, as on Lambda)': { env: { tracing: true } },
  'V8 compile cache beside the bundle, written by this same Node (NODE_COMPILE_CACHE, portable)': {
    compileCache: true,
  },
  'JWKS delivered with the deployment (no JWKS fetch at init)': {
    build: withPlugin(replaceModule(/^aws-jwt-verify\/jwk$/, `${benchDir}entries/delivered-jwks.ts`)),
    deliveredJwks: true,
  },
  'trivial handler': { build: withEntry(ENTRIES.trivial) },
};
