// What the default stack costs a month whatever the traffic: its alarms and dashboard, counted in
// the synthesized template, and the custom metrics the function's records can publish.

import { readFileSync } from 'node:fs';
import { synth } from '../test/helpers/cdk.ts';
import { PRICES } from './prices.ts';

/** The refusal reasons the code can give (AuthFailure in handlers/lib/errors.ts): one AuthFailures metric each. */
export function authFailureReasons(): string[] {
  const source = readFileSync(new URL('../handlers/lib/errors.ts', import.meta.url), 'utf8');
  const union = source.match(/export type AuthFailure =([^;]+);/)?.[1] ?? '';
  return [...union.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] ?? '');
}

export function monthlyCost() {
  const stack = synth();
  try {
    const resources = (type: string) => Object.values(stack.template.findResources(type));
    const alarmMetrics = resources('AWS::CloudWatch::Alarm').reduce((sum, alarm) => {
      const metrics = alarm.Properties.Metrics as { MetricStat?: object }[] | undefined;
      return sum + (metrics ? metrics.filter((m) => m.MetricStat).length : 1);
    }, 0);
    const dashboards = resources('AWS::CloudWatch::Dashboard').length;
    // Requests by the 5 outcomes of refused and failed requests, AuthFailures by reason,
    // ServerErrors of the version serving (two while a deployment shifts), ColdStart, InitDuration.
    const customMetrics = 5 + authFailureReasons().length + 1 + 2;
    const usd = {
      alarms: alarmMetrics * PRICES.alarmMetric.usd,
      dashboard: dashboards * PRICES.dashboard.usd,
      customMetrics: customMetrics * PRICES.customMetric.usd,
    };
    const round = (value: number) => Math.round(value * 100) / 100;
    return {
      counts: { alarms: resources('AWS::CloudWatch::Alarm').length, alarmMetrics, dashboards, customMetrics },
      alarms: round(usd.alarms),
      dashboard: round(usd.dashboard),
      /** At most: a metric is billed for the hours in which it gets data. */
      customMetrics: round(usd.customMetrics),
      total: round(usd.alarms + usd.dashboard + usd.customMetrics),
    };
  } finally {
    stack.cleanup();
  }
}
