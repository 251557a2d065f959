// The embedded DynamoDB under reads: every Query's LevelDB iterator is closed once the Query is
// answered, so `npm start` holds no more memory after 300 reads than after none.

import { createRequire } from 'node:module';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { batchWrite, putRequest } from '../../local/batch-write.ts';
import { openStore, type Store } from '../../local/store.ts';
import { storedItem } from '../../local/table.ts';
import { removeTempDirs, tempDir } from '../helpers/local-server.ts';

// Counts what abstract-level keeps open per database (iterators, snapshots, batches), by watching
// the two methods every resource passes through; the calls still reach abstract-level.
const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
const level = createRequire(fromDynalite.resolve('memory-level'))('abstract-level');
const proto = level.AbstractLevel.prototype;
const { attachResource, detachResource } = proto;
let open = 0;

beforeAll(() => {
  proto.attachResource = function (this: unknown, resource: unknown) {
    open += 1;
    return attachResource.call(this, resource);
  };
  proto.detachResource = function (this: unknown, resource: unknown) {
    open -= 1;
    return detachResource.call(this, resource);
  };
});
afterAll(() => {
  Object.assign(proto, { attachResource, detachResource });
  removeTempDirs();
});

const query = (store: Store, limit: number) =>
  store.client.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: '#owner = :owner',
      ExpressionAttributeNames: { '#owner': 'owner' },
      ExpressionAttributeValues: { ':owner': 'user#alice' },
      Limit: limit,
    }),
  );

describe.each([
  ['in memory', undefined],
  ['persisted with --data-dir', 'data'],
])('the embedded DynamoDB, %s', (_, dataDir) => {
  it('closes the iterator of every Query, whether it stops at its Limit or reads to the end', async () => {
    const store = await openStore(
      { region: 'eu-west-1', tableName: 'plants', dataDir: dataDir && tempDir(dataDir) },
      'embedded',
    );
    try {
      const plants = Array.from({ length: 10 }, (_, i) =>
        storedItem({ owner: 'alice', id: `p${i}`, name: `Plant ${i}` }),
      );
      await batchWrite(store.client, store.tableName, plants.map(putRequest));
      const before = open;
      for (let i = 0; i < 150; i++) {
        expect((await query(store, 3)).Items).toHaveLength(3);
        expect((await query(store, 100)).Items).toHaveLength(10);
      }
      // A stream's close settles a tick after the response has gone.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(open - before).toBeLessThanOrEqual(0);
    } finally {
      await store.close();
    }
  });
});
