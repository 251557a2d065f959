// No response over Lambda's 6 MB: a page also ends at a byte budget, counted as Lambda counts the
// serialized invocation result, and the next link continues exactly after the last plant returned.
// And DynamoDB's 1 MB read cut, falling inside a page, does not end it early.

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { userPartition } from '../handlers/lib/partitions.ts';
import type { PlantItem } from './helpers/dynamo.ts';
import { httpApiEvent } from './helpers/events.ts';
import { nextQuery } from './helpers/links.ts';
import { type Service, startService, TABLE } from './helpers/service.ts';

const LAMBDA_RESPONSE_LIMIT = 6_291_456;
/** The data CLI's longest name and tag (local/data/plant-row.ts). */
const MAX_TEXT = 1024;
let service: Service;

// 3,200 plants of plain text at the longest sizes, and 100 whose every character grows when the
// body is escaped again inside the result (`"` to 4 bytes, a control character to 7): 11 MB.
const id = (i: number) => `p${String(i).padStart(5, '0')}`;
const big: PlantItem[] = Array.from({ length: 3300 }, (_, i) =>
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
const plantsOf = (items: PlantItem[]) => items.map(({ name, tag }) => (tag === undefined ? { name } : { name, tag }));

beforeAll(async () => {
  service = await startService({ MAX_PAGE_SIZE: '10000' });
  await service.seed([...big, ...heavy]);
});
afterAll(() => service?.stop());

const get = (sub: string, query: string) =>
  service.call(httpApiEvent({ query, headers: { authorization: `Bearer ${service.token(sub)}` } }));

describe('the byte budget', () => {
  it('splits a caller with 11 MB of plants into pages under 6 MB, walked exactly once', async () => {
    const seen: unknown[] = [];
    const sizes: number[] = [];
    let query: string | undefined = '';
    while (query !== undefined && sizes.length < 10) {
      const reply = await get('hoarder', query);
      expect(reply.status).toBe(200);
      sizes.push(Buffer.byteLength(JSON.stringify(reply.result)));
      seen.push(...(reply.body as unknown[]));
      query = nextQuery(reply);
    }
    expect(seen).toEqual(plantsOf(big));
    expect(sizes.length).toBe(2);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(LAMBDA_RESPONSE_LIMIT);
    // The budget is close to the limit, not far below it: within the headroom and one plant.
    expect(sizes[0]).toBeGreaterThan(LAMBDA_RESPONSE_LIMIT - 32_768);
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
