// The fewest variables the function's config reader accepts: what a test of one more variable adds to.

import { readConfig } from '../../handlers/lib/config.ts';
import { MAX_DYNAMODB_DEADLINE_MS, MAX_JWKS_TIMEOUT_MS } from '../../handlers/lib/environment.ts';
import { TEST_REGION } from './dynamo.ts';

export const MINIMAL_FUNCTION_ENV = {
  PLANTS_TABLE_NAME: 'plants',
  AUTH_ISSUER: 'https://issuer.example.com/',
  AUTH_AUDIENCE: 'api://plants',
};

/**
 * The DynamoDB deadline and JWKS fetch timeout of every test of the healthy path: the longest the
 * function takes, so that no machine is slow enough to meet them.
 */
export const UNHURRIED_DEADLINE_MS = MAX_DYNAMODB_DEADLINE_MS;
export const UNHURRIED_JWKS_TIMEOUT_MS = MAX_JWKS_TIMEOUT_MS;
/**
 * A test of a DynamoDB fault sets its own deadline: this one, long enough that a healthy call's attempt
 * (a quarter of the deadline) still ends on a machine at load 30 (the recovery each such test checks),
 * short enough that a fault ends in seconds. Its slow dependency is slower. A fault another bound ends
 * (a byte bound, a refused connection) runs with the unhurried ones.
 */
export const FAULT_DEADLINE_MS = 8000;

/** The function's DynamoDB settings for a local endpoint, read as the function reads them. */
export const localDynamoConfig = (endpoint: string, deadlineMs = UNHURRIED_DEADLINE_MS) =>
  readConfig({
    ...MINIMAL_FUNCTION_ENV,
    AWS_REGION: TEST_REGION,
    DYNAMODB_ENDPOINT: endpoint,
    DYNAMODB_DEADLINE_MS: String(deadlineMs),
  });
