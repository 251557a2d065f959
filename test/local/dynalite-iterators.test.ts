// The embedded DynamoDB under reads: every Query's LevelDB iterator is closed once the Query is
// answered, so `npm start` holds no more memory after 300 reads than after none.

import { createRequire } from 'node:module';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { batchWrite, putRequest } from '../../local/store/batch-write.ts';
import { openStore, type Store } from '../../local/store/store.ts';
import { storedItem } from '../../local/store/table.ts';
import { removeTempDirs, tempDir } from '../helpers/local-server.ts';

// Counts what abstract-level keeps open per database (iterators, snapshots, batches), by watching
// the two methods every resource passes through, and keeps each close() asked for: a close runs on
// LevelDB's own threads when persisted, so one under way is waited for, not taken for a leak. The
// calls still reach abstract-level.
const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
const level = createRequire(fromDynalite.resolve('memory-level'))('abstract-level');
const proto = level.AbstractLevel.prototype;
const { attachResource, detachResource } = proto;
let open = 0;
const closing: Promise<unknown>[] = [];

beforeAll(() => {
  proto.attachResource = function (this: unknown, resource: { close(): Promise<unknown> }) {
    open += 1;
    const close = resource.close;
    resource.close = function (this: unknown) {
      const closed = close.call(this);
      closing.push(closed);
      return closed;
    };
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
      // Every close dynalite asked for, finished (they settle after the response has gone); a
      // resource it never closed is still counted.
      await Promise.allSettled(closing.splice(0));
      expect(open - before).toBeLessThanOrEqual(0);
    } finally {
      await store.close();
    }
  });
});
