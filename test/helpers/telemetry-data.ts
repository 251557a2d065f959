// What makes an alarm or dashboard widget of a synthesized stack have data: AWS publishes the AWS/*
// metrics under the dimensions it documents (aws-metrics.ts, and an option's own rows), and the
// function, configured with the environment the template gives it, writes every PlantStore metric a
// widget or alarm reads, with exactly those dimensions. Read by test/infra/telemetry-data.test.ts and
// by each option's own check (test/infra/<option>/).

import { expect } from '@jest/globals';
import { readConfig } from '../../handlers/lib/config.ts';
import type { TelemetryConfig } from '../../handlers/lib/environment.ts';
import {
  BadRequestError,
  InsufficientScopeError,
  outcomeOfError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../../handlers/lib/errors.ts';
import { LIST_PLANTS } from '../../handlers/lib/operations.ts';
import { initRecord, isRecorded, type RequestFacts, requestRecord } from '../../handlers/lib/request-record.ts';
import { AWS_METRICS, type DocumentedMetrics } from './aws-metrics.ts';
import type { Synthesized } from './cdk.ts';

export const LIST = LIST_PLANTS.operationId;
/** A request of every kind the function answers, each outcome from the error its handler throws. */
export const REQUESTS: Omit<RequestFacts, 'latencyMs' | 'coldStart' | 'functionRequestId' | 'apigwRequestId'>[] = [
  { operation: LIST, status: 200, outcome: 'ok', caller: 'alice', plantsReturned: 3 },
  { operation: LIST, status: 400, outcome: outcomeOfError(new BadRequestError('bad')), caller: 'alice' },
  {
    operation: LIST,
    status: 401,
    outcome: outcomeOfError(new UnauthorizedError('expired', 'expired')),
    reason: 'expired',
  },
  {
    operation: LIST,
    status: 403,
    outcome: outcomeOfError(new InsufficientScopeError(['plants/read'])),
    reason: 'insufficient_scope',
    caller: 'alice',
  },
  {
    operation: LIST,
    status: 503,
    outcome: outcomeOfError(new ServiceUnavailableError(new Error('DynamoDB unavailable'))),
    caller: 'alice',
    error: new Error('DynamoDB unavailable'),
  },
  {
    operation: LIST,
    status: 500,
    outcome: outcomeOfError(new Error('unexpected')),
    caller: 'alice',
    error: new Error('unexpected'),
  },
];

type Published = { namespace: string; name: string; dimensions: Record<string, string> };
type Used = { namespace: string; name: string; dimensions: Record<string, unknown>; where: string };

/** The function's telemetry configuration, read from the template's environment as Lambda would give it. */
export function deployedTelemetry(s: Synthesized): TelemetryConfig {
  const [fn] = Object.values(s.template.findResources('AWS::Lambda::Function'));
  const variables = (fn?.Properties.Environment ?? { Variables: {} }) as { Variables: Record<string, unknown> };
  const plainVariables = variables.Variables;
  const plainStrings = Object.fromEntries(
    Object.entries(plainVariables).filter(([, value]) => typeof value === 'string'),
  );
  const env = {
    PLANTS_TABLE_NAME: 't',
    AUTH_ISSUER: 'https://issuer.example.com',
    AUTH_AUDIENCE: 'a',
    ...plainStrings,
  };
  return { ...readConfig(env as NodeJS.ProcessEnv).telemetry, version: '7' };
}

/** Each metric the records carry, with the values of its dimensions. */
function published(records: Record<string, unknown>[]): Published[] {
  return records.flatMap((record) => {
    const aws = record._aws as {
      CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
    };
    return aws.CloudWatchMetrics.flatMap((directive) =>
      directive.Dimensions.flatMap((set) =>
        directive.Metrics.map((metric) => ({
          namespace: directive.Namespace,
          name: metric.Name,
          dimensions: Object.fromEntries(set.map((key) => [key, String(record[key])])),
        })),
      ),
    );
  });
}

/** The metrics the dashboard's widgets and the alarms read (a CloudFormation reference stands for any value). */
export function metricsRead(s: Synthesized): Used[] {
  const found: Used[] = [];
  for (const [id, alarm] of Object.entries(s.template.findResources('AWS::CloudWatch::Alarm'))) {
    const p = alarm.Properties as Record<string, unknown>;
    const stats = p.MetricName
      ? [{ Namespace: p.Namespace, MetricName: p.MetricName, Dimensions: p.Dimensions }]
      : ((p.Metrics as { MetricStat?: { Metric: Record<string, unknown> } }[]).flatMap((m) =>
          m.MetricStat ? [m.MetricStat.Metric] : [],
        ) as Record<string, unknown>[]);
    for (const m of stats) {
      const dimensions = Object.fromEntries(
        ((m.Dimensions as { Name: string; Value: unknown }[]) ?? []).map((d) => [d.Name, d.Value]),
      );
      found.push({ namespace: String(m.Namespace), name: String(m.MetricName), dimensions, where: `alarm ${id}` });
    }
  }
  const [dashboard] = Object.values(s.template.findResources('AWS::CloudWatch::Dashboard'));
  const join = dashboard?.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] } | undefined;
  const parts = join?.['Fn::Join'][1] ?? [];
  const body = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : '<ref>')).join(''));
  for (const widget of body.widgets as { properties: { title: string; metrics?: unknown[][] } }[]) {
    for (const metric of widget.properties.metrics ?? []) {
      if (typeof metric[0] !== 'string') continue; // a math expression over metrics listed on their own
      const [namespace, name, ...rest] = metric as string[];
      const pairs = rest.filter((item) => typeof item === 'string');
      const dimensions = Object.fromEntries(pairs.flatMap((_, i) => (i % 2 ? [] : [[pairs[i], pairs[i + 1]]])));
      found.push({ namespace: String(namespace), name: String(name), dimensions, where: widget.properties.title });
    }
  }
  return found;
}

/** Every alarm and dashboard widget of `stack` reads a metric that gets data, with the dimensions it is published under. */
export function expectEveryMetricPublished(
  stack: Synthesized,
  requests = REQUESTS,
  documented: readonly DocumentedMetrics[] = AWS_METRICS,
): void {
  const telemetry = deployedTelemetry(stack);
  const facts = { latencyMs: 3, coldStart: false, functionRequestId: 'f', apigwRequestId: 'a' };
  const records = [
    initRecord(150, telemetry),
    ...requests.filter((r) => isRecorded(r.status, telemetry)).map((r) => requestRecord({ ...facts, ...r }, telemetry)),
  ];
  const function_ = published(records);
  const metrics = metricsRead(stack);
  expect(metrics.length).toBeGreaterThan(15);
  for (const metric of metrics) {
    if (metric.namespace.startsWith('AWS/')) {
      const keys = Object.keys(metric.dimensions).sort().join();
      const row = documented.find(
        ({ namespace, metrics, dimensionSets }) =>
          namespace === metric.namespace &&
          metrics.includes(metric.name) &&
          dimensionSets.some((set) => [...set].sort().join() === keys),
      );
      expect([metric.where, metric.name, keys, row ? 'documented' : 'not documented']).toEqual([
        metric.where,
        metric.name,
        keys,
        'documented',
      ]);
      continue;
    }
    const match = function_.find(
      (p) =>
        p.namespace === metric.namespace &&
        p.name === metric.name &&
        Object.keys(p.dimensions).sort().join() === Object.keys(metric.dimensions).sort().join() &&
        Object.entries(metric.dimensions).every(
          ([key, value]) => value === '<ref>' || typeof value !== 'string' || p.dimensions[key] === value,
        ),
    );
    expect([metric.where, metric.name, metric.dimensions, match ? 'published' : 'never published']).toEqual([
      metric.where,
      metric.name,
      metric.dimensions,
      'published',
    ]);
  }
}
