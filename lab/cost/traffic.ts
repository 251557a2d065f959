// The traffic the cost figures are for: requests a second (the default bill ceiling), users per
// request a second, the answers' mix and cold starts; and how requests become billed units.

import { DEFAULT_MAX_REQUESTS_PER_SECOND } from '../../infra/ceiling.ts';
import type { LogMeasurement, Status } from '../measure/log-bytes.ts';
import { BILLING_FACTS } from './prices.ts';

/** The traffic the figures are for. */
export const ASSUMPTIONS = {
  /** The default bill ceiling (infra/ceiling.ts): what the docs price is what the stage lets through. */
  requestsPerSecond: DEFAULT_MAX_REQUESTS_PER_SECOND,
  /**
   * Monthly active users per request a second: 1,000 (100,000 users at 100 requests/s), each making
   * about 2,600 requests a month (~85 a day: app opens, pages, refreshes). Cognito bills users, not
   * requests: fewer requests per user cost more per million (lab/cost/bill.ts prices other counts).
   */
  usersPerRequestPerSecond: 1000,
  /**
   * Share of requests by answer: most succeed; clients that refresh tokens late get some 401s;
   * a 400 is a client bug; a 503 only during an outage. The bytes of each are measured; the mix is assumed.
   */
  mix: { '200': 0.979, '400': 0.005, '401': 0.015, '503': 0.001 } satisfies Record<Status, number>,
  /**
   * Cold starts per request. A steady 100 requests/s keeps 1–2 environments busy (100/s × ~10 ms);
   * if Lambda replaced ten of them every ten minutes that would be 0.017%. 0.1% leaves room for daily
   * ramps, bursts and deployments (each new version starts every environment cold). AWS's own
   * figure, "under 1% of invocations" in production, spans every function, rarely called ones too.
   */
  coldStartRate: 0.001,
  /** DynamoDB read request units of the init warm-up's Query, per cold start. */
  warmUpReadUnits: 0.5,
};

/** Requests a month at `requestsPerSecond` (AWS's 730-hour month). */
export const monthlyRequests = (requestsPerSecond: number) => requestsPerSecond * 3600 * BILLING_FACTS.hoursPerMonth;

/** HTTP API units per request: each answer metered in 512 KB increments, weighted by the mix. */
export function apiUnitsPerRequest(logs: LogMeasurement): number {
  return Object.entries(ASSUMPTIONS.mix).reduce((sum, [status, share]) => {
    const bytes = Buffer.byteLength(logs.byStatus[status as Status].response.body);
    return sum + share * Math.max(1, Math.ceil(bytes / BILLING_FACTS.httpApiMeteringBytes));
  }, 0);
}
