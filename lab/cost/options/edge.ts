// What the edge (-c edge=true) costs, as docs/edge.md quotes it: its prices; against the default stack on
// the page's own month and traffic, what it adds per request (CloudFront, WAF, the viewer function,
// CloudFront's transfer) less what it replaces (the HTTP API's requests, its transfer and its access log),
// and what it adds whatever the traffic (the web ACL, its rules, the blocked-flood alarm, counted in its
// synthesized template); and the worst hour with it in the HTTP API's place, where WAF bills every request
// it evaluates, blocked ones too, and CloudFront none it blocks.

import { join } from 'node:path';
import { MAX_REQUESTS_PER_SECOND } from '../../../infra/ceiling.ts';
import { LOG_RETENTION_DAYS } from '../../../infra/telemetry.ts';
import { synthesize } from '../../../test/helpers/synth.ts';
import { money } from '../../report/doc-figures.ts';
import { cents, forRequests, GB, roundTo } from '../money.ts';
import type { OptionCost } from '../options.ts';
import { BILLING_FACTS, PRICES, type Price } from '../prices.ts';
import { ASSUMPTIONS, monthlyRequests } from '../traffic.ts';
import { PAGE_RESPONSE_BYTES } from '../worst-hour.ts';

const price = (usd: number, per: string, source: string, checked: string): Price => ({ usd, per, source, checked });

export const EDGE_PRICES = {
  cloudFrontRequests: price(
    1.0,
    'million HTTPS requests, United States and Europe ($0.0100 per 10,000); none for a request AWS WAF blocks (since 2024-10-25)',
    'https://aws.amazon.com/cloudfront/pricing/, https://aws.amazon.com/about-aws/whats-new/2024/11/amazon-cloudfront-charges-requests-blocked-aws-waf/',
    '2026-11-25',
  ),
  cloudFrontDataTransferOut: price(
    0.085,
    'GB to the internet, United States and Europe, first 10 TB a month',
    'https://aws.amazon.com/cloudfront/pricing/',
    '2026-11-25',
  ),
  cloudFrontFunctions: price(
    0.1,
    'million CloudFront Functions invocations (billing code Executions-CloudFrontFunctions)',
    'https://aws.amazon.com/cloudfront/pricing/ (as cur.vantage.sh lists it)',
    '2026-11-26',
  ),
  wafRequests: price(
    0.6,
    'million requests a web ACL evaluates, blocked ones included',
    'https://aws.amazon.com/waf/pricing/',
    '2026-11-25',
  ),
  wafWebAcl: price(5.0, 'web ACL a month', 'https://aws.amazon.com/waf/pricing/', '2026-11-25'),
  wafRule: price(
    1.0,
    'rule (or managed rule group) of a web ACL, a month',
    'https://aws.amazon.com/waf/pricing/',
    '2026-11-25',
  ),
} as const;

/** CloudFront's default quota of requests a second per distribution (CloudFront Developer Guide, quotas). */
export const CLOUDFRONT_REQUESTS_PER_SECOND = 250_000;

interface EdgeMonthly {
  webAcls: number;
  rules: number;
  alarms: number;
  usd: number;
}

/** The edge's web ACL (in us-east-1, where CloudFront's live), its rules and the alarms it adds. */
function monthly(parent: string): EdgeMonthly {
  const { assembly, stack } = synthesize(
    { edge: 'true' },
    { outdir: join(parent, 'edge'), env: { account: '123456789012', region: 'us-east-1' } },
  );
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties
  const resources = Object.values(assembly.getStackByName(stack.stackName).template.Resources as Record<string, any>);
  const webAcls = resources.filter((r) => r.Type === 'AWS::WAFv2::WebACL');
  const rules = webAcls.reduce((sum, acl) => sum + acl.Properties.Rules.length, 0);
  const alarms = resources.filter((r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.Namespace === 'AWS/WAFV2');
  return {
    webAcls: webAcls.length,
    rules,
    alarms: alarms.length,
    usd: cents(
      webAcls.length * EDGE_PRICES.wafWebAcl.usd +
        rules * EDGE_PRICES.wafRule.usd +
        alarms.length * PRICES.alarmMetric.usd,
    ),
  };
}

const total = (lines: Record<string, number>) => Object.values(lines).reduce((a, b) => a + b, 0);
const rounded = (lines: Record<string, number>) =>
  Object.fromEntries(Object.entries(lines).map(([k, v]) => [k, roundTo(v, 4)]));

export const cost: OptionCost<EdgeMonthly, ReturnType<typeof section>> = {
  monthly,
  bill(measured, fixed, hour) {
    const priced = section(measured, fixed, hour);
    return {
      section: priced,
      flagPrice: {
        flag: 'edge=true',
        perMillionUsd: priced.perMillionUsd,
        perMonthUsd: priced.perMonthUsd,
        fixed: `web ACL $${EDGE_PRICES.wafWebAcl.usd}, ${priced.rules} rules, the blocked-flood alarm: $${priced.fixedMonthlyUsd.toFixed(2)} a month`,
      },
    };
  },
  page: 'docs/edge.md',
  figures: (s) =>
    [
      ...Object.values(s.adds),
      ...Object.values(s.replaces),
      s.perMillionUsd,
      s.perMonthUsd,
      s.fixedMonthlyUsd,
      s.worstHour.total,
      s.worstHour.blockedPerThousandUsd,
      s.worstHour.atCloudFrontQuota,
      s.worstHour.withoutAtCloudFrontQuota,
    ].map((usd) => money(usd)),
  report: (s) => [
    `| the edge (edge=true), worst hour at the ceiling | USD |`,
    '|---|---|',
    `| admitted: CloudFront, WAF and the viewer function in the HTTP API's place | ${s.worstHour.admittedUsd.total.toFixed(2)} |`,
    `| each 1,000 req/s of flood WAF blocks | ${s.worstHour.blockedPerThousandUsd.toFixed(2)} |`,
    `| **= worst hour, with the account throttle's worth of flood** | **${s.worstHour.total.toFixed(2)}** |`,
    `| with CloudFront's default quota's worth of flood (without the edge: ${s.worstHour.withoutAtCloudFrontQuota.toFixed(2)}) | ${s.worstHour.atCloudFrontQuota.toFixed(2)} |`,
  ],
};

function section(
  measured: Parameters<OptionCost['bill']>[0],
  fixed: EdgeMonthly,
  hour: Parameters<OptionCost['bill']>[2],
) {
  const storageShare = BILLING_FACTS.logStorageCompression * PRICES.logsStorage.usd * (LOG_RETENTION_DAYS / 30.4);
  const adds = {
    cloudFront: EDGE_PRICES.cloudFrontRequests.usd,
    waf: EDGE_PRICES.wafRequests.usd,
    viewerFunction: EDGE_PRICES.cloudFrontFunctions.usd,
    cloudFrontTransfer: ((measured.responseBytesPerRequest * EDGE_PRICES.cloudFrontDataTransferOut.usd) / GB) * 1e6,
  };
  const replaces = {
    apiGateway: measured.perMillionUsd.apiGateway,
    apiTransfer: measured.perMillionUsd.dataTransferOut,
    accessLog:
      ((measured.logBytesPerRequest.apiAccessLog * (PRICES.logsIngestInfrequent.usd + storageShare)) / GB) * 1e6,
  };
  const perMillionUsd = roundTo(total(adds) - total(replaces), 4);
  // The worst hour: CloudFront, WAF and the viewer function per admitted request, CloudFront's transfer,
  // no API Gateway, no access log; a blocked request bills WAF's fee alone.
  const perHour = hour.maxRequestsPerSecond * 3600;
  const { lambdaRequests, lambdaDuration, dynamodbReads } = hour.validTokensUsd;
  const admitted = {
    cloudFrontAndWaf:
      perHour *
      ((EDGE_PRICES.cloudFrontRequests.usd + EDGE_PRICES.wafRequests.usd + EDGE_PRICES.cloudFrontFunctions.usd) / 1e6),
    lambdaRequests,
    lambdaDuration,
    dynamodbReads,
    dataTransferOut: (perHour * PAGE_RESPONSE_BYTES.budget * EDGE_PRICES.cloudFrontDataTransferOut.usd) / GB,
  };
  const blockedPerThousand = 1000 * 3600 * (EDGE_PRICES.wafRequests.usd / 1e6);
  const accountFlood = Math.max(0, MAX_REQUESTS_PER_SECOND - hour.maxRequestsPerSecond) / 1000;
  const quotaFlood = Math.max(0, CLOUDFRONT_REQUESTS_PER_SECOND - hour.maxRequestsPerSecond) / 1000;
  return {
    adds: rounded(adds),
    replaces: rounded(replaces),
    perMillionUsd,
    rules: fixed.rules,
    fixedMonthlyUsd: fixed.usd,
    perMonthUsd: cents(forRequests(perMillionUsd, monthlyRequests(ASSUMPTIONS.requestsPerSecond)) + fixed.usd),
    /** The worst hour at the default ceiling with the edge in the HTTP API's place. */
    worstHour: {
      admittedUsd: { ...rounded(admitted), total: cents(total(admitted)) },
      blockedPerThousandUsd: cents(blockedPerThousand),
      total: cents(total(admitted) + accountFlood * blockedPerThousand),
      atCloudFrontQuota: cents(total(admitted) + quotaFlood * blockedPerThousand),
      /** The same flood at the HTTP API, for comparison: throttled, each 429 logged. */
      withoutAtCloudFrontQuota: cents(hour.validTokensUsd.total + quotaFlood * hour.floodPerThousandUsd.lean),
    },
  };
}
