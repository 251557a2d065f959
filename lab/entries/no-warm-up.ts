// Stand-in for handlers/lib/warm-up.ts in the "no warm-up" bench variant: init neither opens
// DynamoDB's connection nor waits for the JWKS, so the first request does both, as before.

export const INIT_WARM_UP_BUDGET_MS = 0;
export const warmUpPlantsClient = async (): Promise<void> => {};
export const settleWithin = async (): Promise<void> => {};
