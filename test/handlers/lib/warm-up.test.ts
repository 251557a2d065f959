// The init warm-up: one Query that reads nothing (whatever the table holds), and a wait that is
// bounded and never fails the cold start.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPlantsClient } from '../../../handlers/lib/dynamodb-client.ts';
import { settleWithin, warmUpPlantsClient } from '../../../handlers/lib/warm-up.ts';
import { type LocalDynamo, putPlants, startDynamo } from '../../helpers/dynamo.ts';
import { localDynamoConfig } from '../../helpers/function-env.ts';

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
    // Act
    const result = (await warmUpPlantsClient(createPlantsClient(localDynamoConfig(dynamo.endpoint)), TABLE)) as {
      Items?: unknown[];
    };

    // Assess
    expect(result.Items).toEqual([]);
  });
});

describe('settleWithin', () => {
  it('waits for every task, and a failed one does not fail the wait', async () => {
    // Prepare
    let finished = false;
    const slow = new Promise((resolve) => setTimeout(resolve, 20)).then(() => {
      finished = true;
    });

    // Act
    await settleWithin([slow, Promise.reject(new Error('issuer down'))], 10_000);

    // Assess
    expect(finished).toBe(true);
  });

  it('stops waiting at the deadline when a task never settles', async () => {
    // Prepare: the test's own deadline, cleared after, or it would hold the whole test run open
    // for its 5 s when this file is among the last to run ("Jest did not exit").
    let giveUp: NodeJS.Timeout | undefined;
    const stillWaiting = new Promise((resolve) => {
      giveUp = setTimeout(() => resolve('still waiting'), 5_000);
    });

    // Act
    const outcome = await Promise.race([
      settleWithin([new Promise(() => {})], 20).then(() => 'returned'),
      stillWaiting,
    ]);
    clearTimeout(giveUp);

    // Assess
    expect(outcome).toBe('returned');
  });
});
