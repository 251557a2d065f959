// What a `sam local` container talks to: DynamoDB with the demo data, and the HTTPS token issuer.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { COLLECTION } from '../../handlers/lib/names.ts';
import { DEMO_USERS, seedDemoData } from '../store/demo.ts';
import { startDynalite } from '../store/store.ts';
import { createPlantsTable } from '../store/table.ts';
import { DOCKER_HOST_NAME, startSamIssuer } from './issuer.ts';

const SAM_TABLE = COLLECTION;

export type SamServices = Awaited<ReturnType<typeof startSamServices>>;

export async function startSamServices(issuerDir: string, host: string, scope?: string) {
  const dynamo = await startDynalite(undefined, host);
  const raw = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await createPlantsTable(raw, SAM_TABLE);
    const seeded = await seedDemoData(DynamoDBDocumentClient.from(raw), SAM_TABLE);
    const issuer = await startSamIssuer(issuerDir, host);
    return {
      tableName: SAM_TABLE,
      // DYNAMODB_ENDPOINT as the container reaches it.
      dynamodbEndpoint: `http://${DOCKER_HOST_NAME}:${dynamo.port}`,
      issuer,
      seeded,
      tokens: DEMO_USERS.map(({ user, groups }) => ({ user, groups, token: issuer.mint(user, groups, scope) })),
      close: () => Promise.all([issuer.close(), dynamo.close()]),
    };
  } catch (error) {
    await dynamo.close();
    throw error;
  } finally {
    raw.destroy();
  }
}
