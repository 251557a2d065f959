// The fewest variables the function's config reader accepts: what a test of one more variable adds to.

import { readConfig } from '../../handlers/lib/config.ts';
import { TEST_REGION } from './dynamo.ts';

export const MINIMAL_FUNCTION_ENV = {
  PLANTS_TABLE_NAME: 'plants',
  AUTH_ISSUER: 'https://issuer.example.com/',
  AUTH_AUDIENCE: 'api://plants',
};

/** The function's DynamoDB settings for a local endpoint, read as the function reads them. */
export const localDynamoConfig = (endpoint: string) =>
  readConfig({ ...MINIMAL_FUNCTION_ENV, AWS_REGION: TEST_REGION, DYNAMODB_ENDPOINT: endpoint });
