// What the default stack costs a month whatever the traffic: its alarms and dashboard, counted in
// the synthesized template, and the custom metrics the function's records can publish; and each option's.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTH_FAILURES } from '../../handlers/lib/errors.ts';
import { METRICS, OUTCOMES } from '../../handlers/lib/telemetry-names.ts';
import { synthesize } from '../../test/helpers/synth.ts';
import { cents } from './money.ts';
import { OPTION_COSTS } from './options.ts';
import { PRICES } from './prices.ts';

export async function monthlyCost() {
  const outdir = mkdtempSync(join(tmpdir(), 'plant-store-bench-'));
  try {
    const { assembly, stack } = synthesize({}, { outdir });
    // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties
    type Resource = { Type: string; Properties: Record<string, any> };
    const template = assembly.getStackByName(stack.stackName).template as { Resources: Record<string, Resource> };
    const resources = (type: string) => Object.values(template.Resources).filter((resource) => resource.Type === type);
    const alarmMetrics = resources('AWS::CloudWatch::Alarm').reduce((sum, alarm) => {
      const metrics = alarm.Properties.Metrics as { MetricStat?: object }[] | undefined;
      return sum + (metrics ? metrics.filter((m) => m.MetricStat).length : 1);
    }, 0);
    const dashboards = resources('AWS::CloudWatch::Dashboard').length;
    // Contributor Insights on a table in throttled-keys mode: the partition-key rule, and the
    // partition-and-sort-key rule where the table has a sort key (ours does).
    const insightsRules =
      resources('AWS::DynamoDB::Table').filter((table) => table.Properties.ContributorInsightsSpecification?.Enabled)
        .length * 2;
    // Requests by each outcome of a refused or failed request, AuthFailures by reason (one metric
    // each), ServerErrors of the version serving (a new version's overlaps the old one's only during
    // a deployment, and metrics are billed by the hour), ColdStart, InitDuration.
    const refusedOrFailed = OUTCOMES.filter((outcome) => outcome !== 'ok');
    const oneEach = [METRICS.serverErrors, METRICS.coldStart, METRICS.initDuration];
    const customMetrics = refusedOrFailed.length + AUTH_FAILURES.length + oneEach.length;
    const usd = {
      alarms: alarmMetrics * PRICES.alarmMetric.usd,
      dashboard: dashboards * PRICES.dashboard.usd,
      contributorInsights: insightsRules * PRICES.contributorInsightsRule.usd,
      customMetrics: customMetrics * PRICES.customMetric.usd,
    };
    return {
      counts: {
        alarms: resources('AWS::CloudWatch::Alarm').length,
        alarmMetrics,
        dashboards,
        contributorInsightsRules: insightsRules,
        customMetrics,
      },
      alarms: cents(usd.alarms),
      dashboard: cents(usd.dashboard),
      contributorInsights: cents(usd.contributorInsights),
      /** At most: a metric is billed for the hours in which it gets data. */
      customMetrics: cents(usd.customMetrics),
      total: cents(usd.alarms + usd.dashboard + usd.contributorInsights + usd.customMetrics),
      /** What each option adds whatever the traffic, counted in its own template (options/). */
      options: Object.fromEntries(Object.entries(OPTION_COSTS).map(([name, option]) => [name, option.monthly(outdir)])),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
