// A hot partition, seen before callers feel it: throttle metrics by reason, and an alarm.
// Contributor Insights names the key; its rules carry a timestamp in their names, so no widget can.

import { Duration } from 'aws-cdk-lib';
import { GraphWidget, type Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { ContributorInsightsMode, type ContributorInsightsSpecification, type Table } from 'aws-cdk-lib/aws-dynamodb';

/**
 * Records only throttled requests' keys: 2 rules here (partition key, and partition + sort key),
 * about $1 a month, and events only while something is throttled (docs/operations.md).
 */
export const THROTTLED_KEYS_INSIGHTS: ContributorInsightsSpecification = {
  enabled: true,
  mode: ContributorInsightsMode.THROTTLED_KEYS,
};

/** Read throttles by the reason DynamoDB gives (ThrottlingReasons), as CloudWatch publishes them. */
export const READ_THROTTLE_REASONS = {
  // One partition past 3,000 read units a second: a hot group.
  ReadKeyRangeThroughputThrottleEvents: 'hot partition (key range)',
  // The table's own maximum on-demand throughput, when one is set.
  ReadMaxOnDemandThroughputThrottleEvents: 'table maximum on-demand throughput',
  // The account's per-table read quota.
  ReadAccountLimitThrottleEvents: 'account read quota',
} as const;

const readThrottles = (table: Table, name: keyof typeof READ_THROTTLE_REASONS, period: Duration): Metric =>
  table.metric(name, { statistic: 'Sum', period, label: READ_THROTTLE_REASONS[name] });

/** Reads of one partition key throttled: what the HotPartition alarm (monitoring.ts) watches. */
export const keyRangeReadThrottles = (table: Table, period: Duration): Metric =>
  table.metric('ReadKeyRangeThroughputThrottleEvents', { statistic: 'Sum', period });

/** Throttled reads by reason beside the read units consumed, on one graph. */
export function throttleReasonsWidget(table: Table, period: Duration = Duration.minutes(5)): GraphWidget {
  const reasons = Object.keys(READ_THROTTLE_REASONS) as (keyof typeof READ_THROTTLE_REASONS)[];
  return new GraphWidget({
    title: 'DynamoDB read throttles by reason, and read units consumed',
    left: reasons.map((name) => readThrottles(table, name, period)),
    right: [table.metricConsumedReadCapacityUnits({ period, statistic: 'Sum', label: 'read units consumed' })],
    width: 24,
    height: 6,
  });
}
