// What the edge (-c edge=true) costs against the default stack, on the page's own month and
// traffic: what it adds per request (CloudFront, WAF, the viewer function, CloudFront's transfer)
// less what it replaces (the HTTP API's requests, its transfer and its access log), and what it
// adds whatever the traffic (the web ACL, its rules, the blocked-flood alarm).

import { LOG_RETENTION_DAYS } from '../../infra/telemetry.ts';
import { cents, forRequests, GB, roundTo } from './money.ts';
import { BILLING_FACTS, PRICES } from './prices.ts';
import { ASSUMPTIONS, monthlyRequests } from './traffic.ts';

/** What the price needs of a bench run (results.json's `cost`). */
export interface EdgeInputs {
  perMillionUsd: { apiGateway: number; dataTransferOut: number };
  responseBytesPerRequest: number;
  logBytesPerRequest: { apiAccessLog: number };
  /** The edge's monthly lines, counted in its synthesized template (monthly.ts). */
  monthlyUsd: { edge: { rules: number; usd: number } };
}

export function edgePrice(cost: EdgeInputs) {
  const accessLogBytes = cost.logBytesPerRequest.apiAccessLog;
  const storageShare = BILLING_FACTS.logStorageCompression * PRICES.logsStorage.usd * (LOG_RETENTION_DAYS / 30.4);
  const adds = {
    cloudFront: PRICES.cloudFrontRequests.usd,
    waf: PRICES.wafRequests.usd,
    viewerFunction: PRICES.cloudFrontFunctions.usd,
    cloudFrontTransfer: ((cost.responseBytesPerRequest * PRICES.cloudFrontDataTransferOut.usd) / GB) * 1e6,
  };
  const replaces = {
    apiGateway: cost.perMillionUsd.apiGateway,
    apiTransfer: cost.perMillionUsd.dataTransferOut,
    accessLog: ((accessLogBytes * (PRICES.logsIngestInfrequent.usd + storageShare)) / GB) * 1e6,
  };
  const total = (lines: Record<string, number>) => Object.values(lines).reduce((a, b) => a + b, 0);
  const perMillionUsd = roundTo(total(adds) - total(replaces), 4);
  const { rules, usd: fixedMonthlyUsd } = cost.monthlyUsd.edge;
  return {
    adds: Object.fromEntries(Object.entries(adds).map(([k, v]) => [k, roundTo(v, 4)])),
    replaces: Object.fromEntries(Object.entries(replaces).map(([k, v]) => [k, roundTo(v, 4)])),
    perMillionUsd,
    rules,
    fixedMonthlyUsd,
    perMonthUsd: cents(forRequests(perMillionUsd, monthlyRequests(ASSUMPTIONS.requestsPerSecond)) + fixedMonthlyUsd),
  };
}
