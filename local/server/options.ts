// Settings of the local server and the data CLI, from command-line flags and the environment.

import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, readIssuerType } from '../../handlers/lib/config.ts';
import { ENV, type IssuerType } from '../../handlers/lib/environment.ts';
import { COLLECTION } from '../../handlers/lib/names.ts';
import type { StoreOptions } from '../store/store.ts';
import { DEFAULT_HOST } from './listen-address.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const DEFAULT_PORT = 3000;
export const DEFAULT_TABLE = COLLECTION;
export const DEFAULT_REGION = 'us-east-1';
/**
 * DYNAMODB_DEADLINE_MS where `npm start` and `npm run sam` serve (unless set): dynalite runs on the
 * same laptop, in the server's own process for `npm start`, where ten Queries on a busy machine take
 * longer than the deployed 3 s. Still inside the function timeout with the JWKS fetch's 3 s.
 */
export const LOCAL_DYNAMODB_DEADLINE_MS = 10_000;
/** The JWKS fetch's timeout there too: the issuer answers from the same busy laptop (deployed: 1.5 s). */
export const LOCAL_JWKS_TIMEOUT_MS = 10_000;

/** Git-ignored working folder: issuer keys, the built bundle, the running server's address. */
export const localDirOf = (env: NodeJS.ProcessEnv) => resolve(env.PLANTS_LOCAL_DIR || join(REPO_ROOT, '.local'));
export const issuerDirOf = (localDir: string) => join(localDir, 'issuer');

export type StoreFlags = Partial<Record<'endpoint' | 'region' | 'table' | 'data-dir', string>>;

export function readServerOptions(
  flags: StoreFlags & Partial<Record<'port' | 'host', string>>,
  env: NodeJS.ProcessEnv,
) {
  return {
    port: parsePort(flags.port ?? env.PORT ?? String(DEFAULT_PORT)),
    host: flags.host?.trim() || DEFAULT_HOST,
    localDir: localDirOf(env),
    store: storeOptionsOf(flags, env),
    // AUTH_ISSUER set: verify that issuer's tokens instead of running the local one.
    externalIssuer: Boolean(env[ENV.issuer]?.trim()),
    tokenShape: tokenShapeOf(env),
  };
}

/** The local issuer's token shape: AUTH_ISSUER_TYPE by the handler's own rule, Cognito's unless told. */
export function tokenShapeOf(env: NodeJS.ProcessEnv): IssuerType {
  try {
    return readIssuerType(env, 'cognito');
  } catch (error) {
    // Here a bad value is a mistake on the command line (exit 2), not a function that must not serve.
    throw error instanceof ConfigError ? new OptionValueError(error.message) : error;
  }
}

/** One rule for the server and the CLI: an endpoint means an external store, else dynalite. */
export function storeOptionsOf(flags: StoreFlags, env: NodeJS.ProcessEnv): StoreOptions {
  const dataDir = flags['data-dir'] || env.PLANTS_DATA_DIR || undefined;
  return {
    endpoint: flags.endpoint || env[ENV.dynamodbEndpoint] || undefined,
    dataDir: dataDir && resolve(dataDir),
    region: flags.region || env.AWS_REGION || env.AWS_DEFAULT_REGION || DEFAULT_REGION,
    tableName: flags.table || env[ENV.tableName] || DEFAULT_TABLE,
  };
}

/** A bad value for an option or variable: a command-line mistake, said in one line; the CLIs exit 2. */
export class OptionValueError extends Error {
  override name = 'OptionValueError';
}

/** `name` says where the value came from (PORT, --port) in the error. */
export function parsePort(raw: string, name = 'PORT'): number {
  const port = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || port > 65535)
    throw new OptionValueError(`${name} must be a number from 0 to 65535, got "${raw}"`);
  return port;
}
