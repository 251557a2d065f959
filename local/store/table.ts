// The plants table: its key schema, written once for the local server, the data CLI and the tests.

import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  paginateListTables,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { groupPartition, userPartition } from '../../handlers/lib/partitions.ts';

interface PlantFields {
  id: string;
  name: string;
  tag?: string;
  [attribute: string]: unknown;
}

/** A plant as people, files and tests name it: a user's own (`owner`, the sub) or a group's. */
export type PlantItem = PlantFields & ({ owner: string; group?: undefined } | { group: string; owner?: undefined });

/** The item as stored: partition key `owner` holds the partition (`user#<sub>` or `group#<name>`), sort key `id`. */
export function storedItem({ owner, group, ...fields }: PlantItem): Record<string, unknown> {
  return { ...fields, owner: group === undefined ? userPartition(owner) : groupPartition(group) };
}

/** The inverse of storedItem: a stored item named by its owner's sub or its group. */
export function plantFromItem({ owner: partition, ...fields }: Record<string, unknown>): PlantItem {
  const key = String(partition);
  const plant = { ...fields, id: String(fields.id), name: String(fields.name ?? '') };
  return key.startsWith(groupPartition(''))
    ? { ...plant, group: key.slice(groupPartition('').length) }
    : { ...plant, owner: key.slice(userPartition('').length) };
}

export async function tableExists(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}

const TABLES_NAMED = 20;

/** "tables there: a, b" (or "no tables there"), for an error about a table that is not found. */
export async function tablesThere(client: DynamoDBClient): Promise<string> {
  const names: string[] = [];
  try {
    for await (const page of paginateListTables({ client }, {})) {
      names.push(...(page.TableNames ?? []));
      if (names.length > TABLES_NAMED) break;
    }
  } catch (error) {
    // Real accounts may deny dynamodb:ListTables; the missing table is still the error to report.
    return `its tables could not be listed (${(error as Error).name})`;
  }
  if (names.length === 0) return 'no tables there';
  const more = names.length > TABLES_NAMED ? ', …' : '';
  return `tables there: ${names.slice(0, TABLES_NAMED).join(', ')}${more} (pick one with --table NAME or PLANTS_TABLE_NAME)`;
}

/** Creates the table with the deployed key schema; returns false when it already existed. */
export async function createPlantsTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'owner', AttributeType: 'S' },
          { AttributeName: 'id', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'owner', KeyType: 'HASH' },
          { AttributeName: 'id', KeyType: 'RANGE' },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof ResourceInUseException) return false;
    throw error;
  }
  // DynamoDB Local, moto and real DynamoDB report CREATING for a moment; dynalite can be told not to.
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { TableName: tableName });
  return true;
}
