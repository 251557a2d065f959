// What on-call watches: alarms on sustained errors, throttling and latency, and one dashboard.

import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { RequestLogMode } from '../handlers/lib/environment.ts';
import { OPERATIONS, tableCallsOf } from '../handlers/lib/operations.ts';
import { DIMENSIONS, METRICS, METRICS_NAMESPACE, OUTCOMES, SERVICE_NAME } from '../handlers/lib/telemetry-names.ts';
import { mailingTopic } from './alarm-mail.ts';
import type { RequestMetrics } from './front.ts';
import { keyRangeReadThrottles, throttleReasonsWidget } from './hot-partition.ts';
import type { AlarmSettings } from './settings.ts';

/** The outcomes the function counts in `Requests`; `ok` only when it records every request. */
const FAILED_OUTCOMES = OUTCOMES.filter((outcome) => outcome !== 'ok');
/** Dashboard granularity. */
const PERIOD = Duration.minutes(5);
/**
 * Alarms fire when 3 of the last 5 one-minute datapoints are bad: one bad minute (a deploy, a cold burst)
 * does not page, about three minutes of trouble does, flickering or not.
 */
export const ALARM_PERIOD = Duration.minutes(1);
export const ALARM_EVALUATION_PERIODS = 5;
export const ALARM_DATAPOINTS = 3;

export interface MonitoringProps {
  /** The requests as the front counts them: API Gateway's, or an extension's in its place. */
  requests: RequestMetrics;
  fn: LambdaFunction;
  table: Table;
  alarms: AlarmSettings;
  /** Which requests the function records (requestLog): the dashboard shows only metrics that get data. */
  requestLog?: RequestLogMode;
  /** The `service` dimension of the function's metrics (infra/stack-environment.ts: one per environment). */
  service?: string;
  /** The user pool has a machine client (authRequiredScope): watch the tokens Cognito bills. */
  machineClient?: boolean;
  /** Alarms an option's front brings in this stack: mailed too, never a rollback alarm. */
  frontAlarms?: Alarm[];
}

/**
 * Client-credentials tokens a second over 5 minutes above which MachineTokens fires: each is billed ($8.10 an
 * hour per token a second), where a client keeping its token fetches one an hour. The count is the account's.
 */
export const MACHINE_TOKENS_PER_SECOND_ALARM = 1;
const MACHINE_TOKENS_PERIOD = Duration.minutes(5);
const machineTokenRequests = () =>
  new Metric({
    namespace: 'AWS/Usage',
    metricName: 'CallCount',
    // The dimensions Cognito documents for its usage metrics: no Class, which it doesn't use.
    dimensionsMap: { Service: 'Cognito user pool', Type: 'API', Resource: 'ClientAuthentication' },
    statistic: 'Sum',
    period: MACHINE_TOKENS_PERIOD,
  });

export class Monitoring extends Construct {
  readonly alarms: Alarm[];
  /** One partition key's reads throttled: paged like the others, but never a reason to roll back. */
  readonly hotPartition: Alarm;
  /** With a machine client: tokens fetched far faster than a client keeping its token would (not a rollback alarm). */
  readonly machineTokens?: Alarm;

  constructor(
    scope: Construct,
    id: string,
    {
      requests,
      fn,
      table,
      alarms,
      requestLog = 'failures',
      service = SERVICE_NAME,
      machineClient,
      frontAlarms = [],
    }: MonitoringProps,
  ) {
    super(scope, id);

    this.alarms = [
      alarm(
        this,
        'ServerErrorRate',
        serverErrorRate(requests, alarms),
        alarms.errorRatePercent,
        `5xx above ${alarms.errorRatePercent}% of requests (minutes with at least ${alarms.minRequests})`,
      ),
      alarm(this, 'FunctionErrors', fn.metricErrors({ period: ALARM_PERIOD }), 0, 'The function crashed or timed out'),
      alarm(this, 'FunctionThrottles', fn.metricThrottles({ period: ALARM_PERIOD }), 0, 'Lambda throttled invocations'),
      alarm(
        this,
        'P99Duration',
        fn.metricDuration({ statistic: 'p99', period: ALARM_PERIOD }),
        alarms.p99Ms,
        `p99 function duration above ${alarms.p99Ms} ms`,
      ),
      alarm(
        this,
        'DynamoDBThrottles',
        tableThrottles(table, ALARM_PERIOD),
        0,
        `DynamoDB throttled ${tableCallsOf(OPERATIONS).join(', ')} requests`,
      ),
    ];

    // Not a rollback alarm: a hot group is traffic, not the new version; a rollback would not cool it.
    this.hotPartition = alarm(
      this,
      'HotPartition',
      keyRangeReadThrottles(table, ALARM_PERIOD),
      0,
      'DynamoDB throttled reads of one partition key (a hot group: docs/operations.md, "When HotPartition fires")',
    );

    if (machineClient) {
      const threshold = MACHINE_TOKENS_PER_SECOND_ALARM * MACHINE_TOKENS_PERIOD.toSeconds();
      this.machineTokens = new Alarm(this, 'MachineTokens', {
        metric: machineTokenRequests(),
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `Client-credentials tokens above ${threshold} in 5 minutes: Cognito bills each (docs/deploy.md, machine clients)`,
      });
    }

    if (alarms.email) {
      const action = new SnsAction(mailingTopic(this, alarms.email));
      const mailed = [...this.alarms, this.hotPartition, ...(this.machineTokens ? [this.machineTokens] : [])];
      for (const each of [...mailed, ...frontAlarms]) each.addAlarmAction(action);
    }

    const serverErrors = requests.serverErrors(PERIOD);
    const p99 = fn.metricDuration({ statistic: 'p99', period: PERIOD });
    const dynamoThrottles = tableThrottles(table, PERIOD);
    const emf = (name: string, dimensions: Record<string, string>, statistic = 'Sum') =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: { [DIMENSIONS.service]: service, ...dimensions },
        statistic,
        period: PERIOD,
        label: Object.values(dimensions).join(' ') || `${name} ${statistic}`,
      });
    const outcomes = requestLog === 'all' ? OUTCOMES : FAILED_OUTCOMES;
    new Dashboard(this, 'Dashboard', {
      dashboardName: `${fn.stack.stackName}-plant-store`,
      widgets: [
        [
          // Every request is in the front's count; the function records the refused and failed ones.
          graph('Requests by outcome', [
            requests.count(PERIOD).with({ label: `all requests (${requests.source})` }),
            ...outcomes.map((outcome) => emf(METRICS.requests, { [DIMENSIONS.outcome]: outcome })),
          ]),
          graph('Latency (ms)', [
            requests.latency('p50', PERIOD).with({ label: 'API p50' }),
            requests.latency('p99', PERIOD).with({ label: 'API p99' }),
            fn.metricDuration({ statistic: 'p50', period: PERIOD, label: 'function p50' }),
            p99.with({ label: 'function p99' }),
          ]),
        ],
        [
          graph('Errors and throttles', [
            requests.clientErrors(PERIOD).with({ label: '4xx' }),
            serverErrors.with({ label: '5xx' }),
            fn.metricErrors({ period: PERIOD, label: 'function errors' }),
            fn.metricThrottles({ period: PERIOD, label: 'function throttles' }),
            dynamoThrottles.with({ label: 'DynamoDB throttles' }),
          ]),
          // From the function's init record: Lambda's platform.report (which had INIT's duration) is
          // not written at the default system log level.
          new GraphWidget({
            title: 'Cold starts and INIT duration',
            left: [emf(METRICS.coldStart, {})],
            right: [emf(METRICS.initDuration, {}, 'p50'), emf(METRICS.initDuration, {}, 'Maximum')],
            width: 12,
            height: 6,
          }),
        ],
        [throttleReasonsWidget(table, PERIOD)],
        ...(requestLog === 'all'
          ? [
              [
                graph('Plants returned per request', [
                  emf(METRICS.plantsReturned, { [DIMENSIONS.outcome]: 'ok' }, 'Average'),
                  emf(METRICS.plantsReturned, { [DIMENSIONS.outcome]: 'ok' }, 'Maximum'),
                ]),
              ],
            ]
          : []),
      ],
    });
  }
}

/**
 * `errors` as a percentage of `requests`, in minutes with at least `minRequests` (one in three means nothing),
 * else 0: the rate the mailed alarm and the canary's rollback alarm both judge by.
 */
export function busyMinuteRate(errors: IMetric, requests: IMetric, minRequests: number, label: string): IMetric {
  return new MathExpression({
    expression: `IF(requests >= ${minRequests}, 100 * FILL(errors, 0) / requests, 0)`,
    usingMetrics: { errors, requests },
    label,
    period: ALARM_PERIOD,
  });
}

function serverErrorRate(requests: RequestMetrics, { minRequests }: AlarmSettings): IMetric {
  return busyMinuteRate(requests.serverErrors(ALARM_PERIOD), requests.count(ALARM_PERIOD), minRequests, '5xx rate (%)');
}

/**
 * Throttled requests of every call the operations make on the table (operations.ts): a plain metric
 * for one call (CDK's ForOperations helper wraps even one in a math expression), their sum for several.
 */
function tableThrottles(table: Table, period: Duration): Metric | MathExpression {
  const calls = tableCallsOf(OPERATIONS);
  const throttled = (call: string) =>
    table.metric('ThrottledRequests', {
      dimensionsMap: { TableName: table.tableName, Operation: call },
      statistic: 'Sum',
      period,
    });
  const [only] = calls;
  if (only !== undefined && calls.length === 1) return throttled(only);
  // A call without throttles has no datapoint: counted as 0, or the sum would have none either.
  return new MathExpression({
    expression: calls.map((_, i) => `FILL(m${i}, 0)`).join(' + '),
    usingMetrics: Object.fromEntries(calls.map((call, i) => [`m${i}`, throttled(call)])),
    label: 'ThrottledRequests',
    period,
  });
}

/** Fires above `threshold` in `datapoints` of the last `evaluationPeriods` one-minute datapoints. */
export function alarm(
  scope: Construct,
  id: string,
  metric: IMetric,
  threshold: number,
  description: string,
  { datapoints, evaluationPeriods } = { datapoints: ALARM_DATAPOINTS, evaluationPeriods: ALARM_EVALUATION_PERIODS },
): Alarm {
  return new Alarm(scope, id, {
    metric,
    threshold,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods,
    datapointsToAlarm: datapoints,
    // No traffic is not an outage.
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: `${description}, in ${datapoints} of ${evaluationPeriods} minutes`,
  });
}

function graph(title: string, metrics: IMetric[]): GraphWidget {
  return new GraphWidget({ title, left: metrics, width: 12, height: 6 });
}
