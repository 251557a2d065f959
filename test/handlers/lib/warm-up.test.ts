// The init warm-up: one Query that reads nothing (whatever the table holds), and a wait that is
// bounded and never fails the cold start.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { createPlantsClient } from '../../../handlers/lib/dynamodb-client.ts';
import { settleWithin, warmUpPlantsClient } from '../../../handlers/lib/warm-up.ts';
import { type LocalDynamo, putPlants, startDynamo } from '../../helpers/dynamo.ts';
import { localDynamoConfig, UNHURRIED_DEADLINE_MS } from '../../helpers/function-env.ts';

const TABLE = 'plants-warm-up';
let dynamo: LocalDynamo;
beforeAll(async () => {
  // The function's client reads credentials from its environment, as on Lambda.
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  dynamo = await startDynamo(TABLE);
  await putPlants(dynamo.client, TABLE, [{ owner: 'warm-up', id: 'p1', name: 'Fern' }]);
});
afterAll(() => dynamo?.close());

describe('warmUpPlantsClient', () => {
  it("queries a partition no plant can be in, so it reads nothing even from a user whose sub is 'warm-up'", async () => {
    // Act: with the healthy path's longest budget, not init's 1.5 s, which a busy machine can pass.
    const client = createPlantsClient(localDynamoConfig(dynamo.endpoint));
    const result = (await warmUpPlantsClient(client, TABLE, UNHURRIED_DEADLINE_MS)) as { Items?: unknown[] };

    // Assess
    expect(result.Items).toEqual([]);
  });
});

// The clock is the test's: the waits end when it moves time, never because the machine was slow.
describe('settleWithin', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });
  /** Whether `waiting` has settled once the clock reads `ms` (every promise callback run by then). */
  const settledAt = async (waiting: Promise<unknown>, ms: number) => {
    let settled = false;
    void waiting.then(() => {
      settled = true;
    });
    await jest.advanceTimersByTimeAsync(ms - Date.now());
    await new Promise((resolve) => setImmediate(resolve));
    return settled;
  };

  it('waits for every task, and a failed one does not fail the wait', async () => {
    // Prepare: a task that takes 20 ms, another that fails at once.
    jest.setSystemTime(0);
    let finished = false;
    const slow = new Promise((resolve) => setTimeout(resolve, 20)).then(() => {
      finished = true;
    });

    // Act
    const waiting = settleWithin([slow, Promise.reject(new Error('issuer down'))], 10_000);

    // Assess: still waiting just before the slow task ends, done as it ends, long before the deadline.
    expect(await settledAt(waiting, 19)).toBe(false);
    expect(await settledAt(waiting, 20)).toBe(true);
    expect(finished).toBe(true);
  });

  it('stops waiting at the deadline when a task never settles', async () => {
    // Prepare
    jest.setSystemTime(0);

    // Act
    const waiting = settleWithin([new Promise(() => {})], 20);

    // Assess
    expect(await settledAt(waiting, 19)).toBe(false);
    expect(await settledAt(waiting, 20)).toBe(true);
  });
});
