// The lab's clients' rule for a failure worth a retry later (a 503): the product's client takes the
// SDK's own classification instead (handlers/lib/dynamodb-client.ts).

const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

/** Throttling, a 5xx from DynamoDB, or no answer at all (network, timeout, a body cut short: no status). */
export function isUnavailable(errorName: string, httpStatus: number | undefined): boolean {
  return THROTTLING.has(errorName) || httpStatus === undefined || httpStatus >= 500;
}
