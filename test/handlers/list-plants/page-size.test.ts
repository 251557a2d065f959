// A page is at most 80 KiB, one HTTP API billing unit: it also ends at a byte budget, counted as Lambda
// counts the serialized invocation result, and the next link continues exactly after the last plant
// returned; a plant larger than the budget makes a page alone. And DynamoDB's 1 MB read cut, falling
// inside a page, does not end it early.

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  HEADROOM,
  HTTP_API_METERING_BYTES,
  MAX_PAGE_BYTES,
  PAGE_BYTE_BUDGET,
} from '../../../handlers/lib/page-budget.ts';
import { userPartition } from '../../../handlers/lib/partitions.ts';
import type { PlantItem } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { nextQuery } from '../../helpers/links.ts';
import { type Service, startService, TABLE } from '../../helpers/service.ts';

/** The longest name and tag a writer stores (handlers/lib/plant-item.ts, local/data/plant-row.ts). */
const MAX_TEXT = 1024;
let service: Service;

// 320 plants of plain text at the longest sizes, and 10 whose every character grows when the
// body is escaped again inside the result (`"` to 4 bytes, a control character to 7): 1.1 MB, 17 budgets.
const id = (i: number) => `p${String(i).padStart(5, '0')}`;
const big: PlantItem[] = Array.from({ length: 330 }, (_, i) =>
  i % 33 === 0
    ? { owner: 'hoarder', id: id(i), name: '"'.repeat(MAX_TEXT), tag: '\u0001'.repeat(MAX_TEXT) }
    : { owner: 'hoarder', id: id(i), name: `${i}`.padEnd(MAX_TEXT, 'n'), tag: 'é'.repeat(MAX_TEXT) },
);
// Items of ~300 KB, nearly all in an attribute the query does not project: 1 MB of reads holds 3.
const heavy: PlantItem[] = Array.from({ length: 8 }, (_, i) => ({
  owner: 'archivist',
  id: id(i),
  name: `heavy ${i}`,
  notes: 'x'.repeat(300_000),
}));
// A plant of 100,000 control characters (700 KB once escaped twice), then a small one.
const giant: PlantItem[] = [
  { owner: 'giant', id: id(0), name: '\u0001'.repeat(100_000) },
  { owner: 'giant', id: id(1), name: 'small' },
];
const plantsOf = (items: PlantItem[]) => items.map(({ name, tag }) => (tag === undefined ? { name } : { name, tag }));

beforeAll(async () => {
  service = await startService({ MAX_PAGE_SIZE: '10000' });
  await service.seed([...big, ...heavy, ...giant]);
});
afterAll(() => service?.stop());

const get = (sub: string, query: string) =>
  service.call(httpApiEvent({ query, headers: { authorization: `Bearer ${service.token(sub)}` } }));

describe('the byte budget', () => {
  it('splits a caller with 1.1 MB of plants into pages within the budget and one billing unit, walked exactly once', async () => {
    const seen: unknown[] = [];
    const sizes: number[] = [];
    let query: string | undefined = '';
    while (query !== undefined && sizes.length < 1000) {
      const reply = await get('hoarder', query);
      expect(reply.status).toBe(200);
      sizes.push(Buffer.byteLength(JSON.stringify(reply.result)));
      seen.push(...(reply.body as unknown[]));
      query = nextQuery(reply);
    }
    expect(seen).toEqual(plantsOf(big));
    for (const size of sizes)
      expect(size).toBeLessThanOrEqual(Math.min(PAGE_BYTE_BUDGET + HEADROOM, HTTP_API_METERING_BYTES));
    // The budget is filled, not left far below: every page but the last within one plant of it.
    const largestPlant = Math.max(
      ...big.map(({ name, tag }) => Buffer.byteLength(JSON.stringify(JSON.stringify({ name, tag })))),
    );
    for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThan(PAGE_BYTE_BUDGET - largestPlant);
  });

  it('gives a plant larger than the whole budget a page of its own, and walks on past it', async () => {
    const first = await get('giant', 'limit=5');
    expect(first.body).toEqual(plantsOf(giant).slice(0, 1));
    const size = Buffer.byteLength(JSON.stringify(first.result));
    expect(size).toBeGreaterThan(PAGE_BYTE_BUDGET);
    expect(size).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    const rest = await get('giant', nextQuery(first) ?? '');
    expect(rest.body).toEqual(plantsOf(giant).slice(1));
    expect(rest.headers.link).toBeUndefined();
  });
});

describe("DynamoDB's 1 MB read cut", () => {
  it('falls inside a page, which still holds limit plants', async () => {
    // Prepare: dynalite cuts a query at 1 MB read, as DynamoDB does.
    const raw = await service.dynamo.client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: '#o = :o',
        ExpressionAttributeNames: { '#o': 'owner' },
        ExpressionAttributeValues: { ':o': userPartition('archivist') },
      }),
    );
    expect(raw.Items?.length).toBeLessThan(heavy.length);
    expect(raw.LastEvaluatedKey).toBeDefined();

    const first = await get('archivist', 'limit=7');
    expect(first.body).toEqual(plantsOf(heavy).slice(0, 7));
    const rest = await get('archivist', nextQuery(first) ?? '');
    expect(rest.body).toEqual(plantsOf(heavy).slice(7));
    expect(rest.headers.link).toBeUndefined();
  });
});
