// Volume-tiered prices: what a month's quantity costs when each tier of it has its own price
// (HTTP API requests, internet data transfer, Cognito monthly active users).

import { PRICES } from './prices.ts';

/** A price by volume: `upTo` units a month at `usd` each, then the next tier (the last has no bound). */
export interface Tier {
  upTo: number;
  usd: number;
}

/** What `quantity` units a month cost under tiered `tiers`, each tier's units at its own price. */
export function tiered(quantity: number, tiers: readonly Tier[]): number {
  let cost = 0;
  let below = 0;
  for (const { upTo, usd } of tiers) {
    const units = Math.max(0, Math.min(quantity, upTo) - below);
    cost += units * usd;
    below = upTo;
    if (quantity <= upTo) break;
  }
  return cost;
}

/** Cognito Lite's monthly-active-user tiers (the first 10,000 free). */
export const COGNITO_LITE_TIERS: readonly Tier[] = [
  { upTo: 10_000, usd: 0 },
  { upTo: 100_000, usd: PRICES.cognitoLiteMau.usd },
  { upTo: Number.POSITIVE_INFINITY, usd: 0.0046 },
];
export const COGNITO_ESSENTIALS_TIERS: readonly Tier[] = [
  { upTo: 10_000, usd: 0 },
  { upTo: Number.POSITIVE_INFINITY, usd: PRICES.cognitoEssentialsMau.usd },
];
/** HTTP API requests (per request, not per million). */
export const HTTP_API_TIERS: readonly Tier[] = [
  { upTo: 300e6, usd: PRICES.httpApiRequests.usd / 1e6 },
  { upTo: Number.POSITIVE_INFINITY, usd: PRICES.httpApiRequestsOver300M.usd / 1e6 },
];
/** Internet data transfer out, per GB; beyond 50 TB a month is priced at the 40 TB tier here (higher than AWS's). */
export const DATA_TRANSFER_TIERS: readonly Tier[] = [
  { upTo: 10_000, usd: PRICES.dataTransferOut.usd },
  { upTo: Number.POSITIVE_INFINITY, usd: PRICES.dataTransferOutNext40TB.usd },
];
