// The DynamoDB clients bench:variants compares the function's (the SDK's) with, each behind
// readPlantsPage's PlantsClient, against dynalite and the faults it cannot produce: what each keeps of
// the function's behaviour (pages, retries, the 503 mapping, timeouts, Lambda's credentials, the
// signature as received). The function's own: test/handlers/lib/plants-page.test.ts.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ServiceUnavailableError } from '../../handlers/lib/errors.ts';
import { groupPartition, userPartition } from '../../handlers/lib/partitions.ts';
import { type PlantsClient, type Position, readPlantsPage } from '../../handlers/lib/plants.ts';
import { type LocalDynamo, putPlants, startDynamo, TEST_REGION } from '../../test/helpers/dynamo.ts';
import { type Fault, type FaultyDynamo, startFaultyDynamo } from '../../test/helpers/faulty-dynamo.ts';
import { FAULT_DEADLINE_MS, localDynamoConfig, UNHURRIED_DEADLINE_MS } from '../../test/helpers/function-env.ts';
import * as awsLite from '../entries/dynamodb-aws-lite.ts';
import * as handWritten from '../entries/hand-written/dynamodb-client.ts';
import { type Received, signatureOf } from './helpers/sigv4.ts';

/**
 * This test's own bound for a read that keeps failing: a client that has not answered by then keeps no
 * timeout of its own. Far past the worst case of one that does, however slow the machine: three
 * attempts of a quarter of FAULT_DEADLINE_MS each (6 s), each attempt's timer late by what the load
 * adds (about 2 s at load 35). Which bound ended the read is the verdict, not how long it took.
 */
const NO_ANSWER_AFTER_MS = 60_000;
const RETRIED: Fault[] = ['throttled', 'throttling', 'internal', 'reset', 'hang'];

/** Each client as the function configures it, with a deadline: the healthy path's longest unless given. */
const CLIENTS: [string, (endpoint: string, deadlineMs?: number) => PlantsClient][] = [
  [
    'hand-written (SigV4 over node:https)',
    (endpoint, deadlineMs) => handWritten.createPlantsClient(localDynamoConfig(endpoint, deadlineMs)),
  ],
  ['aws-lite', (endpoint, deadlineMs) => awsLite.createPlantsClient(localDynamoConfig(endpoint, deadlineMs))],
];
/** What a client was found not to keep (lab/docs/performance.md says the same). */
const LACKS: Record<string, Fault[]> = { 'aws-lite': ['hang'] };

const TABLE = 'dynamodb-clients';
let dynamo: LocalDynamo;
let faulty: FaultyDynamo;
const saved = { ...process.env };
beforeAll(async () => {
  // Region and credentials from the environment, as Lambda gives them.
  Object.assign(process.env, { AWS_REGION: TEST_REGION, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  dynamo = await startDynamo(TABLE);
  faulty = await startFaultyDynamo();
  faulty.target = dynamo.endpoint;
  await putPlants(dynamo.client, TABLE, [
    ...[1, 2, 3].map((i) => ({ owner: 'ann', id: `a${i}`, name: `ann ${i}`, tag: 'own' })),
    ...[1, 2, 3].map((i) => ({ group: 'team', id: `t${i}`, name: `team ${i}` })),
  ]);
});
/** Reads a client never answered (LACKS): they settle once the faulty endpoint closes, before the end. */
const unanswered: Promise<unknown>[] = [];
afterAll(async () => {
  process.env = saved;
  await faulty?.close();
  await Promise.allSettled(unanswered);
  await dynamo?.close();
});

async function failureOf(client: PlantsClient) {
  const deadline = new Promise<'no answer'>((resolve) => setTimeout(resolve, NO_ANSWER_AFTER_MS, 'no answer').unref());
  const input = { TableName: TABLE, KeyConditionExpression: 'a = :a', ExpressionAttributeNames: {} };
  const read = client.query({ ...input, ExpressionAttributeValues: { ':a': 'x' }, Limit: 1 });
  const error = await Promise.race([
    read.then(
      () => 'answered',
      (e: unknown) => e,
    ),
    deadline,
  ]);
  if (error === 'no answer') unanswered.push(read);
  return { error };
}

// Every client and retried fault at once, each behind its own faulty endpoint: a hang costs its
// client seconds of timeouts (aws-lite, which keeps none, this test's whole bound), and one at a time
// they would add up. The hangs start first.
const FAILURES = RETRIED.toSorted((a, b) => Number(b === 'hang') - Number(a === 'hang')).flatMap((fault) =>
  CLIENTS.map(([name, create]) => [name, fault, create] as const),
);
describe('each client when DynamoDB keeps failing', () => {
  it.concurrent.each(FAILURES)(
    '%s, when DynamoDB is %s: three attempts, then a 503 of its own (or is in LACKS)',
    async (name, fault, create) => {
      const failing = await startFaultyDynamo();
      failing.target = dynamo.endpoint;
      failing.fault = fault;
      try {
        // The deadline a fault test sets (test/helpers/function-env.ts): the attempts' timeouts are cut from it.
        const { error } = await failureOf(create(failing.endpoint, FAULT_DEADLINE_MS));
        const kept = error instanceof ServiceUnavailableError && failing.requests === 3;
        expect({ fault, kept }).toEqual({ fault, kept: !LACKS[name]?.includes(fault) });
        if (fault === 'hang') {
          // What ended the hung read: the client's own attempt timeout, or for one without, this test's bound.
          const endedBy = error === 'no answer' ? 'this test' : ((error as Error).cause as Error | undefined)?.name;
          expect(endedBy).toBe(LACKS[name]?.includes(fault) ? 'this test' : 'TimeoutError');
        }
      } finally {
        await failing.close();
      }
    },
  );
});

describe.each(CLIENTS)('%s behind PlantsClient', (_name, create) => {
  it('walks every plant once, own then group, page after page', async () => {
    const client = create(dynamo.endpoint);
    const partitions = [userPartition('ann'), groupPartition('team')];
    const seen: unknown[] = [];
    let from: Position | undefined = { partition: 0, afterId: undefined };
    while (from !== undefined && seen.length < 100) {
      const page = await readPlantsPage(client, TABLE, {
        partitions,
        from,
        limit: 2,
        byteBudget: 1_000_000,
        deadlineMs: UNHURRIED_DEADLINE_MS,
      });
      seen.push(...page.plants.map((plant) => JSON.parse(plant.json)));
      from = page.next;
    }
    expect(seen).toEqual([
      ...[1, 2, 3].map((i) => ({ name: `ann ${i}`, tag: 'own' })),
      ...[1, 2, 3].map((i) => ({ name: `team ${i}` })),
    ]);
  });

  it('throws a validation error as it came, after one attempt: no retry, no 503', async () => {
    faulty.fault = 'validation';
    const before = faulty.requests;
    const { error } = await failureOf(create(faulty.endpoint));
    faulty.fault = 'none';
    expect(error).not.toBeInstanceOf(ServiceUnavailableError);
    expect((error as Error).name).toBe('ValidationException');
    expect(faulty.requests - before).toBe(1);
  });

  it("signs with Lambda's credentials from the environment, session token included, for the Region", async () => {
    const seen: Received[] = [];
    const server = createServer(async (request, response) => {
      const body = Buffer.concat(await Array.fromAsync(request)).toString();
      seen.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
      response.end('{"Items":[],"Count":0,"ScannedCount":0}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'ASIAFROMLAMBDA', AWS_SESSION_TOKEN: 'session-of-the-role' });
    try {
      const client = create(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      await client.query({
        TableName: TABLE,
        KeyConditionExpression: '#o = :o',
        ExpressionAttributeNames: { '#o': 'owner' },
        ExpressionAttributeValues: { ':o': 'x' },
        Limit: 1,
      });
    } finally {
      Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local' });
      delete process.env.AWS_SESSION_TOKEN;
      server.closeAllConnections();
      server.close();
    }
    const [received] = seen;
    expect(received?.headers.authorization).toMatch(
      new RegExp(`^AWS4-HMAC-SHA256 Credential=ASIAFROMLAMBDA/\\d{8}/${TEST_REGION}/dynamodb/aws4_request,`),
    );
    expect(received?.headers['x-amz-security-token']).toBe('session-of-the-role');
    expect(received?.headers['x-amz-target']).toBe('DynamoDB_20120810.Query');
    // What DynamoDB checks: the signature over the request as it arrived (dynalite checks none).
    expect(await signatureOf(received, { secretAccessKey: 'local', sessionToken: 'session-of-the-role' })).toBe(
      received?.headers.authorization?.split('Signature=')[1],
    );
  });
});
