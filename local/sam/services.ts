// What the function in a `sam local` container talks to, started on the host address containers
// reach: an embedded DynamoDB (dynalite, in memory) with the demo data, and the HTTPS token issuer.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { DEMO_USERS, seedDemoData } from '../demo.ts';
import { closeDynaliteIterators } from '../dynalite-iterators.ts';
import { createPlantsTable } from '../table.ts';
import { DOCKER_HOST_NAME, type SamIssuer, startSamIssuer } from './issuer.ts';

const SAM_TABLE = 'plants';

export interface SamServices {
  tableName: string;
  /** DYNAMODB_ENDPOINT as the container reaches it. */
  dynamodbEndpoint: string;
  issuer: SamIssuer;
  seeded: number;
  /** A token per demo user, with the user's demo groups. */
  tokens: { user: string; groups: readonly string[]; token: string }[];
  close(): Promise<void>;
}

export async function startSamServices(issuerDir: string, host: string, scope?: string): Promise<SamServices> {
  closeDynaliteIterators();
  const server: Server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const closeDynamo = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const { port } = server.address() as AddressInfo;
  const raw = new DynamoDBClient({
    endpoint: `http://${host}:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await createPlantsTable(raw, SAM_TABLE);
    const seeded = await seedDemoData(DynamoDBDocumentClient.from(raw), SAM_TABLE);
    const issuer = await startSamIssuer(issuerDir, host);
    return {
      tableName: SAM_TABLE,
      dynamodbEndpoint: `http://${DOCKER_HOST_NAME}:${port}`,
      issuer,
      seeded,
      tokens: DEMO_USERS.map(({ user, groups }) => ({ user, groups, token: issuer.mint(user, groups, scope) })),
      close: async () => {
        await Promise.all([issuer.close(), closeDynamo()]);
      },
    };
  } catch (error) {
    await closeDynamo();
    throw error;
  } finally {
    raw.destroy();
  }
}
