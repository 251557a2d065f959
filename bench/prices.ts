// Every AWS price the cost figures use: on-demand, us-east-1, without free tiers, each with where it
// is published and when it was read. GB here is 10^9 bytes (AWS bills some services per 2^30 bytes;
// the decimal gigabyte gives the higher, conservative figure).

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
  dashboard: price(
    3.0,
    'dashboard-month (the first 3 of an account are free)',
    'https://aws.amazon.com/cloudwatch/pricing/',
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
};
