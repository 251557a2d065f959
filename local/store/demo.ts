// Demo data for a first start: two users' own plants and a group they share.

import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { groupPartition, userPartition } from '../../handlers/lib/partitions.ts';
import type { DemoUser } from '../issuer/auth-mode.ts';
import { batchWrite, putRequest } from './batch-write.ts';
import { type PlantItem, storedItem } from './table.ts';

export const DEMO_GROUP = 'greenhouse';

export const DEMO_USERS: readonly DemoUser[] = [
  { user: 'alice', groups: [DEMO_GROUP] },
  { user: 'bob', groups: [DEMO_GROUP] },
];

type DemoPlants = [name: string, tag?: string][];

const OWN_PLANTS: Record<string, DemoPlants> = {
  alice: [['Monstera deliciosa', 'tropical'], ['Aloe vera', 'succulent'], ['Basil', 'herb'], ['Fiddle-leaf fig']],
  bob: [
    ['Snake plant', 'succulent'],
    ['Boston fern', 'fern'],
  ],
};
const GROUP_PLANTS: Record<string, DemoPlants> = {
  [DEMO_GROUP]: [
    ['Tomato', 'vegetable'],
    ['Lemon tree', 'citrus'],
  ],
};

export function demoPlants(): PlantItem[] {
  const plants = (plants: DemoPlants) =>
    plants.map(([name, tag], i) => ({ id: `demo-${String(i + 1).padStart(3, '0')}`, name, ...(tag && { tag }) }));
  return [
    ...Object.entries(OWN_PLANTS).flatMap(([owner, own]) => plants(own).map((plant) => ({ ...plant, owner }))),
    ...Object.entries(GROUP_PLANTS).flatMap(([group, shared]) => plants(shared).map((plant) => ({ ...plant, group }))),
  ];
}

export async function seedDemoData(client: DynamoDBDocumentClient, tableName: string): Promise<number> {
  const plants = demoPlants();
  await batchWrite(
    client,
    tableName,
    plants.map((plant) => putRequest(storedItem(plant))),
  );
  return plants.length;
}

/** When none of the demo users' or group's partitions holds a plant: the banner's commands would return []. */
export async function demoDataNotice(client: DynamoDBDocumentClient, tableName: string): Promise<string | undefined> {
  const partitions = [...DEMO_USERS.map(({ user }) => userPartition(user)), groupPartition(DEMO_GROUP)];
  const found = await Promise.all(
    partitions.map(async (partition) => {
      const { Items } = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: '#o = :o',
          ExpressionAttributeNames: { '#o': 'owner' },
          ExpressionAttributeValues: { ':o': partition },
          Limit: 1,
        }),
      );
      return (Items ?? []).length > 0;
    }),
  );
  if (found.some(Boolean)) return undefined;
  const owners = DEMO_USERS.map(({ user }) => `${user}'s`).join(', ');
  return (
    'No demo data: the table already held data (demo data goes only into a new table), none of it is ' +
    `${owners} or the ${DEMO_GROUP} group's, so the commands below answer []. Add some: npm run plants -- add alice "Fern"`
  );
}
