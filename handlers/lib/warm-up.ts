// The network made ready during Lambda's INIT phase, so the first request waits for one round
// trip (its Query) instead of the handshakes of two new TLS connections and the client's first call.

import { WARM_UP_PARTITION } from './partitions.ts';
import { OWNER_CONDITION } from './plant-query.ts';
import type { PlantsClient } from './plants.ts';

/** How long init waits for the warm-ups: past it they go on in the background. */
export const INIT_WARM_UP_BUDGET_MS = 1500;

/**
 * Connects to DynamoDB (TCP, TLS), resolves credentials and the endpoint, and runs the client's
 * first-call setup, with one Query of a partition that no item can have (WARM_UP_PARTITION). It needs nothing beyond the function's
 * `dynamodb:Query` grant and reads nothing (0.5 RCU per cold start). The keep-alive connection it
 * opens serves the first request. Given up after `budgetMs` (a test of what it reads sets a longer one).
 */
export function warmUpPlantsClient(
  client: PlantsClient,
  tableName: string,
  budgetMs = INIT_WARM_UP_BUDGET_MS,
): Promise<unknown> {
  const query = {
    TableName: tableName,
    KeyConditionExpression: OWNER_CONDITION,
    ExpressionAttributeNames: { '#owner': 'owner' },
    ExpressionAttributeValues: { ':owner': WARM_UP_PARTITION },
    Limit: 1,
  };
  return client.query(query, { abortSignal: AbortSignal.timeout(budgetMs) });
}

/**
 * Waits until every task has settled or `ms` have passed, whichever comes first, and never
 * rejects: a warm-up that failed or is still running is simply done again by the first request.
 */
export async function settleWithin(tasks: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(tasks), deadline]);
  clearTimeout(timer);
}
