// Every context flag's price against the default stack, per million requests (measured, from
// cost.ts's variants) and per month at the priced traffic: what it adds per request times a month's
// requests, plus what it adds whatever the traffic (metrics, alarms, clients); an option's: options/.

import { FUNCTION_MEMORY_MB } from '../../infra/function-runtime.ts';
import { cents, forRequests, roundTo } from './money.ts';
import { PRICES } from './prices.ts';
import { ASSUMPTIONS, monthlyRequests } from './traffic.ts';

export interface FlagPrice {
  flag: string;
  perMillionUsd: number;
  perMonthUsd: number;
  /** What the monthly figure holds beyond per-request lines. */
  fixed: string;
}

const HOURS = 730;
/** Tokens a month a machine caller fetches when it keeps each for the default 60-minute lifetime. */
const MACHINE_TOKENS_PER_MONTH = HOURS;

/** Monthly lines a flag adds whatever the traffic, and why. */
const FIXED: Record<string, { usd: number; what: string }> = {
  'requestLog=all': {
    usd: 2 * PRICES.customMetric.usd,
    what: '2 custom metrics (Requests of the ok outcome, PlantsReturned)',
  },
  'jwtAuthorizer=true': { usd: 0, what: 'refused tokens are neither billed by the gateway nor invoke the function' },
};

/** Flags that cost nothing per request, only per month (or nothing at all). */
function monthlyOnly(durationMs: number, requests: number): FlagPrice[] {
  const gbSeconds = (ms: number) => (ms / 1000) * (FUNCTION_MEMORY_MB / 1024);
  const x86 = gbSeconds(durationMs) * (PRICES.lambdaX86GbSecond.usd - PRICES.lambdaArmGbSecond.usd) * 1e6;
  const machine =
    PRICES.cognitoM2mAppClient.usd + (MACHINE_TOKENS_PER_MONTH / 1000) * PRICES.cognitoM2mTokenRequests.usd;
  const provisioned = gbSeconds(1000) * 3600 * HOURS * PRICES.lambdaProvisionedGbSecond.usd;
  const row = (flag: string, perMillionUsd: number, fixedUsd: number, fixed: string): FlagPrice => ({
    flag,
    perMillionUsd: roundTo(perMillionUsd, 4),
    perMonthUsd: cents(forRequests(perMillionUsd, requests) + fixedUsd),
    fixed,
  });
  return [
    row('architecture=x86_64', x86, 0, 'duration at $0.0000166667 instead of $0.0000133334 per GB-s'),
    row(
      'authRequiredScope=…',
      0,
      machine,
      `the machine app client $6 + one caller's 730 tokens (60-min tokens) at $2.25 per 1,000; exposure: $${PRICES.cognitoM2mTokenRequests.usd / 1000} a token, outside every ceiling (a client fetching one per call pays it per request)`,
    ),
    row('provisionedConcurrency=1', 0, provisioned, 'per environment kept initialised, used or not (1024 MB)'),
    row('deploymentStrategy=all-at-once', 0, -4 * PRICES.alarmMetric.usd, 'the 3 new-version alarms (4 metrics) go'),
    row('reserveConcurrency=true', 0, 0, 'no charge; takes environments from the account pool'),
    row('maxRequestsPerSecond=N', 0, 0, 'no charge; bounds the worst hour'),
    row('alarmEmail=…', 0, 0, 'SNS e-mail: the first 1,000 notifications a month are free'),
  ];
}

export function flagPrices(measured: { flag: string; changeUsd: number }[], durationMs: number): FlagPrice[] {
  const requests = monthlyRequests(ASSUMPTIONS.requestsPerSecond);
  const perRequest = measured.map(({ flag, changeUsd }) => {
    const fixed = FIXED[flag] ?? { usd: 0, what: '' };
    return {
      flag,
      perMillionUsd: changeUsd,
      perMonthUsd: cents(forRequests(changeUsd, requests) + fixed.usd),
      fixed: fixed.what,
    };
  });
  return [...perRequest, ...monthlyOnly(durationMs, requests)];
}
