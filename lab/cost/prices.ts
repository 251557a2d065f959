// Every AWS price the cost figures use (an option's: its own file in options/): on-demand, us-east-1,
// without free tiers, each with where it is published and when it was read. GB here is 10^9 bytes (AWS bills some services per 2^30 bytes;
// the decimal gigabyte gives the higher, conservative figure).

import { HTTP_API_METERING_BYTES } from '../../handlers/lib/page-budget.ts';

export interface Price {
  usd: number;
  per: string;
  source: string;
  /** When the price was read at the source. */
  checked: string;
}

const price = (usd: number, per: string, source: string, checked = '2026-11'): Price => ({ usd, per, source, checked });

export const PRICES = {
  httpApiRequests: price(
    1.0,
    'million requests (first 300 million a month; $0.90 after)',
    'https://aws.amazon.com/api-gateway/pricing/',
  ),
  restApiRequests: price(
    3.5,
    'million requests (first 333 million a month)',
    'https://aws.amazon.com/api-gateway/pricing/',
  ),
  dataTransferOut: price(
    0.09,
    'GB to the internet (first 10 TB a month), which API Gateway bills at EC2 data transfer rates',
    'https://aws.amazon.com/api-gateway/pricing/, https://aws.amazon.com/ec2/pricing/on-demand/',
  ),
  lambdaRequests: price(0.2, 'million requests', 'https://aws.amazon.com/lambda/pricing/'),
  lambdaArmGbSecond: price(
    0.0000133334,
    'GB-second, arm64, duration and (since August 2025) the INIT phase alike',
    'https://aws.amazon.com/lambda/pricing/',
  ),
  dynamodbReadRequest: price(
    0.125,
    'million read request units, on demand (halved on 1 November 2024)',
    'https://aws.amazon.com/dynamodb/pricing/on-demand/',
  ),
  logsIngestStandard: price(0.5, 'GB ingested, Standard log class', 'https://aws.amazon.com/cloudwatch/pricing/'),
  logsIngestInfrequent: price(
    0.25,
    'GB ingested, Infrequent Access log class',
    'https://aws.amazon.com/cloudwatch/pricing/',
  ),
  logsStorage: price(
    0.03,
    'GB-month stored (archived, compressed), either class',
    'https://aws.amazon.com/cloudwatch/pricing/',
  ),
  xrayTraces: price(5.0, 'million traces recorded', 'https://aws.amazon.com/xray/pricing/'),
  customMetric: price(
    0.3,
    'metric-month (first 10,000 metrics), EMF metrics included',
    'https://aws.amazon.com/cloudwatch/pricing/',
  ),
  alarmMetric: price(
    0.1,
    'metric in a standard-resolution alarm, per month (a metric-math alarm pays for each metric it reads)',
    'https://aws.amazon.com/cloudwatch/pricing/',
  ),
  contributorInsightsRule: price(
    0.5,
    'Contributor Insights rule-month (DynamoDB throttled-keys mode: 2 rules a table with a sort key; $0.03 per million matched events, only throttled ones, on top)',
    'https://aws.amazon.com/cloudwatch/pricing/ (as quoted by usage.ai and dev.to, read 2026-11-25)',
    '2026-11-25',
  ),
  dashboard: price(
    3.0,
    'dashboard-month (the first 3 of an account are free)',
    'https://aws.amazon.com/cloudwatch/pricing/',
  ),
  lambdaProvisionedGbSecond: price(
    0.0000033334,
    'GB-second of provisioned concurrency configured, arm64, used or not',
    'https://aws.amazon.com/lambda/pricing/',
    '2026-11-23',
  ),
  lambdaX86GbSecond: price(0.0000166667, 'GB-second, x86_64', 'https://aws.amazon.com/lambda/pricing/', '2026-11-23'),
  httpApiRequestsOver300M: price(
    0.9,
    'million requests beyond the first 300 million a month',
    'https://aws.amazon.com/api-gateway/pricing/',
    '2026-11-25',
  ),
  dataTransferOutNext40TB: price(
    0.085,
    'GB to the internet, the next 40 TB a month after the first 10 TB',
    'https://aws.amazon.com/ec2/pricing/on-demand/',
    '2026-11-25',
  ),
  dynamodbStorage: price(
    0.25,
    'GB-month of table storage, Standard table class (the first 25 GB of an account free, not counted here); each item is its attribute names and values plus 100 bytes of overhead',
    'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    '2026-11-25',
  ),
  dynamodbPitr: price(
    0.2,
    'GB-month of continuous backups (point-in-time recovery), on the table size',
    'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    '2026-11-25',
  ),
  cognitoLiteMau: price(
    0.0055,
    "monthly active user on the Lite plan, from the 10,001st to 100,000 (first 10,000 free); $0.0046 from 100,001 to 1 million (the price page's worked example); beyond 1 million lower tiers exist, not checked here, so $0.0046 is kept (the higher figure)",
    'https://aws.amazon.com/cognito/pricing/ (read through copies: a transcription of 2026-09-20, danguisinger.com/aws/cognito/)',
    '2026-11-25',
  ),
  cognitoEssentialsMau: price(
    0.015,
    'monthly active user on the Essentials plan beyond the first 10,000 (free)',
    'https://aws.amazon.com/cognito/pricing/ (a transcription of 2026-09-20)',
    '2026-11-25',
  ),
  cognitoPlusMau: price(
    0.02,
    'monthly active user on the Plus plan, no free tier',
    'https://aws.amazon.com/cognito/pricing/ (a transcription of 2026-09-20)',
    '2026-11-25',
  ),
  cognitoM2mAppClient: price(
    6.0,
    'app client allowed the client-credentials grant, per month (prorated by the second)',
    'https://aws.amazon.com/cognito/pricing/ (as quoted by dev.classmethod.jp, 2024-05-13, and in the CUR line item guide)',
    '2026-11-25',
  ),
  cognitoM2mTokenRequests: price(
    2.25,
    'thousand client-credentials token requests (first tier; graduated below that)',
    'https://aws.amazon.com/cognito/pricing/ (CUR line item CUPM2MTokenRequestsFull, cur.vantage-api.com, 2025-04-27)',
    '2026-11-25',
  ),
} as const;

/**
 * Facts about how AWS counts, with where they are documented; not prices, but they set the bill.
 */
export const BILLING_FACTS = {
  /**
   * PutLogEvents counts each event as its UTF-8 message plus 26 bytes (CloudWatch Logs API
   * Reference, PutLogEvents). The pricing page does not say whether ingestion billing counts them;
   * they are counted here, the higher figure.
   */
  logEventOverheadBytes: 26,
  /** Archived logs are stored compressed; the AWS Pricing Calculator's CloudWatch estimate assumes 15%. */
  logStorageCompression: 0.15,
  /** X-Ray with Lambda active tracing: 1 request a second and 5% of the rest, not configurable (Lambda Developer Guide). */
  xrayReservoirPerSecond: 1,
  xrayFixedRate: 0.05,
  /** HTTP API meters requests in 512 KB increments: a 1.1 MB response is billed as 3 requests (API Gateway pricing). */
  httpApiMeteringBytes: HTTP_API_METERING_BYTES,
  /** DynamoDB bills each stored item its attribute names and values plus 100 bytes (Developer Guide, item sizes). */
  dynamodbItemOverheadBytes: 100,
  /** AWS prices a month as 730 hours. */
  hoursPerMonth: 730,
  /**
   * API Gateway bills neither throttled (429) requests nor those its authorizer refuses: AWS staff
   * answers on re:Post (questions QUm1jSF1ieSQ25Ol1RzFLysA, QUY2x146iORPmsJHpff8u0eA,
   * QU5y4fo-e3RWyU5r4VmyPIzA); the documentation page that said so has been removed.
   */
  refusedByGatewayBilled: false,
};
