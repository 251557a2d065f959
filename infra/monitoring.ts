// What on-call watches: alarms on errors, throttling and latency, and one dashboard, built from
// the AWS metrics of the API, function and table plus the function's own EMF metrics.

import { Duration, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
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
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

/** The namespace and service dimension the function's Powertools Metrics publish under. */
export const METRICS_NAMESPACE = 'PlantStore';
export const SERVICE_NAME = 'plant-store';
const OUTCOMES = ['ok', 'bad_request', 'unauthorized', 'forbidden', 'unavailable', 'error'];
const PERIOD = Duration.minutes(5);

export interface MonitoringProps {
  api: HttpApi;
  fn: LambdaFunction;
  table: Table;
  /** Where alarm notifications go; no topic is created without it. */
  alarmEmail: string | undefined;
  /** p99 duration above which the latency alarm fires. */
  p99DurationThreshold: Duration;
}

export class Monitoring extends Construct {
  readonly alarms: Alarm[];

  constructor(scope: Construct, id: string, { api, fn, table, alarmEmail, p99DurationThreshold }: MonitoringProps) {
    super(scope, id);

    const requests = api.metricCount({ period: PERIOD });
    const serverErrors = api.metricServerError({ period: PERIOD });
    // Rate rather than count, so a traffic spike alone does not page anyone.
    const serverErrorRate = new MathExpression({
      expression: '100 * errors / MAX([requests, 1])',
      usingMetrics: { errors: serverErrors, requests },
      label: '5xx rate (%)',
      period: PERIOD,
    });
    const p99 = fn.metricDuration({ statistic: 'p99', period: PERIOD });
    // A plain metric (the ForOperations helper wraps even one operation in a math expression).
    const dynamoThrottles = table.metric('ThrottledRequests', {
      dimensionsMap: { TableName: table.tableName, Operation: 'Query' },
      statistic: 'Sum',
      period: PERIOD,
    });

    this.alarms = [
      alarm(this, 'ServerErrorRate', serverErrorRate, 1, 'More than 1% of requests answered 5xx (5 min)'),
      alarm(this, 'FunctionErrors', fn.metricErrors({ period: PERIOD }), 0, 'The function crashed or timed out'),
      alarm(this, 'FunctionThrottles', fn.metricThrottles({ period: PERIOD }), 0, 'Lambda throttled invocations'),
      alarm(
        this,
        'P99Duration',
        p99,
        p99DurationThreshold.toMilliseconds(),
        `p99 function duration above ${p99DurationThreshold.toMilliseconds()} ms (5 min)`,
      ),
      alarm(this, 'DynamoDBThrottles', dynamoThrottles, 0, 'DynamoDB throttled Query requests'),
    ];

    if (alarmEmail) {
      const topic = new Topic(this, 'AlarmTopic', { displayName: 'Plant store alarms', enforceSSL: true });
      topic.addSubscription(new EmailSubscription(alarmEmail));
      for (const each of this.alarms) each.addAlarmAction(new SnsAction(topic));
      Validations.of(topic).acknowledge({
        id: 'AwsSolutions-SNS2',
        reason:
          'Alarm notifications carry alarm names and states only, no customer data; CloudWatch cannot publish to a ' +
          'topic encrypted with the AWS-managed SNS key, and a customer-managed key is left to deployments that need one.',
      });
    }

    const emf = (name: string, dimensions: Record<string, string>, statistic = 'Sum') =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: { service: SERVICE_NAME, ...dimensions },
        statistic,
        period: PERIOD,
        label: Object.values(dimensions).join(' ') || name,
      });
    new Dashboard(this, 'Dashboard', {
      dashboardName: `${fn.stack.stackName}-plant-store`,
      widgets: [
        [
          graph(
            'Requests by outcome',
            OUTCOMES.map((outcome) => emf('Requests', { outcome })),
          ),
          graph('Latency (ms)', [
            api.metricLatency({ statistic: 'p50', period: PERIOD, label: 'API p50' }),
            api.metricLatency({ statistic: 'p99', period: PERIOD, label: 'API p99' }),
            fn.metricDuration({ statistic: 'p50', period: PERIOD, label: 'function p50' }),
            p99.with({ label: 'function p99' }),
          ]),
        ],
        [
          graph('Errors and throttles', [
            api.metricClientError({ period: PERIOD, label: '4xx' }),
            serverErrors.with({ label: '5xx' }),
            fn.metricErrors({ period: PERIOD, label: 'function errors' }),
            fn.metricThrottles({ period: PERIOD, label: 'function throttles' }),
            dynamoThrottles.with({ label: 'DynamoDB throttles' }),
          ]),
          graph('Plants returned per request', [
            emf('PlantsReturned', { outcome: 'ok' }, 'Average'),
            emf('PlantsReturned', { outcome: 'ok' }, 'Maximum'),
          ]),
        ],
      ],
    });
  }
}

function alarm(scope: Construct, id: string, metric: IMetric, threshold: number, description: string): Alarm {
  return new Alarm(scope, id, {
    metric,
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    // No traffic is not an outage.
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: description,
  });
}

function graph(title: string, metrics: IMetric[]): GraphWidget {
  return new GraphWidget({ title, left: metrics, width: 12, height: 6 });
}
