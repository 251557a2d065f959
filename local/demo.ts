// Demo data for a first start: two users with different plants, enough for alice to page through.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWrite, putRequest } from './batch-write.ts';
import { type PlantItem, storedItem } from './table.ts';

export const DEMO_USERS = ['alice', 'bob'] as const;

const DEMO_PLANTS: Record<(typeof DEMO_USERS)[number], [name: string, tag?: string][]> = {
  alice: [['Monstera deliciosa', 'tropical'], ['Aloe vera', 'succulent'], ['Basil', 'herb'], ['Fiddle-leaf fig']],
  bob: [
    ['Snake plant', 'succulent'],
    ['Boston fern', 'fern'],
  ],
};

export function demoPlants(): PlantItem[] {
  return DEMO_USERS.flatMap((owner) =>
    DEMO_PLANTS[owner].map(([name, tag], i) => ({
      owner,
      id: `demo-${String(i + 1).padStart(3, '0')}`,
      name,
      ...(tag && { tag }),
    })),
  );
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
