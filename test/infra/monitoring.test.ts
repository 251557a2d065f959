// Alarms, the optional alarm topic and the dashboard, as synthesized.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { OPERATIONS, tableCallsOf } from '../../handlers/lib/operations.ts';
import { MACHINE_TOKENS_PER_SECOND_ALARM } from '../../infra/monitoring.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';

let plain: Synthesized;
let mailed: Synthesized;
let machine: Synthesized;

beforeAll(async () => {
  plain = await synth();
  mailed = await synth({
    alarmEmail: 'oncall@example.com',
    requestLog: 'all',
    alarmErrorRatePercent: '2.5',
    alarmMinRequests: '30',
    alarmP99Ms: '1200',
  });
  machine = await synth({ authRequiredScope: 'plants/read', alarmEmail: 'oncall@example.com' });
});

type Alarm = { Properties: Record<string, unknown> };
// The Monitoring construct's alarms; the deployment's new-version alarms are tested in delivery.test.ts.
const alarms = (s: Synthesized) =>
  Object.entries(s.template.findResources('AWS::CloudWatch::Alarm'))
    .filter(([id]) => id.startsWith('Monitoring'))
    .map(([, alarm]) => alarm as Alarm);
const alarmOn = (s: Synthesized, namespace: string, metricName: string) =>
  alarms(s).find((a) => a.Properties.Namespace === namespace && a.Properties.MetricName === metricName);

/** The 5xx rate alarm: the one metric-math alarm judged on the front's request count. */
const rateAlarm = (s: Synthesized) =>
  alarms(s).find(
    (a) => Array.isArray(a.Properties.Metrics) && JSON.stringify(a.Properties.Metrics).includes('IF(requests'),
  );

describe('alarms', () => {
  it('watch function errors, throttles and p99 duration, and DynamoDB throttling, per minute', () => {
    expect(alarmOn(plain, 'AWS/Lambda', 'Errors')?.Properties).toMatchObject({
      Threshold: 0,
      Statistic: 'Sum',
      Period: 60,
    });
    expect(alarmOn(plain, 'AWS/Lambda', 'Throttles')?.Properties).toMatchObject({ Threshold: 0, Period: 60 });
    expect(alarmOn(plain, 'AWS/Lambda', 'Duration')?.Properties).toMatchObject({
      ExtendedStatistic: 'p99',
      Threshold: 3000,
      Period: 60,
    });
    // DynamoDB's throttling of every call the operations make on the table (operations.ts).
    const throttles = alarms(plain).filter((a) => JSON.stringify(a.Properties).includes('ThrottledRequests'));
    expect(throttles).toHaveLength(1);
    for (const call of tableCallsOf(OPERATIONS)) {
      expect(JSON.stringify(throttles[0]?.Properties)).toContain(JSON.stringify({ Name: 'Operation', Value: call }));
    }
  });

  it('page only on sustained trouble: 3 bad minutes out of the last 5, for every alarm', () => {
    // Every one of them, however many there are (the test above names the ones that must exist).
    expect(alarms(plain).length).toBeGreaterThan(0);
    for (const alarm of alarms(plain)) {
      expect(alarm.Properties).toMatchObject({
        EvaluationPeriods: 5,
        DatapointsToAlarm: 3,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  });

  it('treat no traffic as healthy', () => {
    for (const alarm of alarms(plain)) expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
  });

  it('watch the 5xx rate per minute, judged only in minutes with at least 10 requests', () => {
    const metrics = rateAlarm(plain)?.Properties.Metrics as { Id: string; Expression?: string; MetricStat?: object }[];
    expect(rateAlarm(plain)?.Properties.Threshold).toBe(1);
    expect(metrics.find((m) => m.Expression)?.Expression).toBe(
      'IF(requests >= 10, 100 * FILL(errors, 0) / requests, 0)',
    );
    expect(metrics.find((m) => m.Id === 'errors')?.MetricStat).toMatchObject({
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx' },
      Period: 60,
      Stat: 'Sum',
    });
    expect(metrics.find((m) => m.Id === 'requests')?.MetricStat).toMatchObject({
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count' },
      Period: 60,
      Stat: 'Sum',
    });
  });

  it('take their thresholds from context', () => {
    expect(rateAlarm(mailed)?.Properties.Threshold).toBe(2.5);
    expect(JSON.stringify(rateAlarm(mailed)?.Properties.Metrics)).toContain('IF(requests >= 30,');
    expect(alarmOn(mailed, 'AWS/Lambda', 'Duration')?.Properties.Threshold).toBe(1200);
  });

  it('notify nobody unless alarmEmail is given, then mail every alarm through one topic', () => {
    plain.template.resourceCountIs('AWS::SNS::Topic', 0);
    mailed.template.resourceCountIs('AWS::SNS::Topic', 1);
    mailed.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
    });
    for (const alarm of alarms(mailed)) expect(alarm.Properties.AlarmActions).toHaveLength(1);
  });
});

describe('machine tokens', () => {
  const tokens = (s: Synthesized) => alarmOn(s, 'AWS/Usage', 'CallCount');

  it("with a machine client, mails within 5 minutes when Cognito's client-credentials calls pass 1 a second", () => {
    expect(tokens(plain)).toBeUndefined();
    expect(tokens(machine)?.Properties).toMatchObject({
      // Cognito's documented dimensions, and no Class, which it doesn't use (test/helpers/aws-metrics.ts).
      Dimensions: [
        { Name: 'Resource', Value: 'ClientAuthentication' },
        { Name: 'Service', Value: 'Cognito user pool' },
        { Name: 'Type', Value: 'API' },
      ],
      Statistic: 'Sum',
      Period: 300,
      Threshold: MACHINE_TOKENS_PER_SECOND_ALARM * 300,
      EvaluationPeriods: 1,
    });
    expect(tokens(machine)?.Properties.AlarmActions).toHaveLength(1);
    const group = Object.values(machine.template.findResources('AWS::CodeDeploy::DeploymentGroup'))[0];
    expect(JSON.stringify(group)).not.toContain('MachineTokens');
  });
});

describe('a hot partition', () => {
  const hot = (s: Synthesized) => alarmOn(s, 'AWS/DynamoDB', 'ReadKeyRangeThroughputThrottleEvents');

  it("pages when one partition key's reads are throttled, on every stack", () => {
    expect(hot(plain)?.Properties).toMatchObject({
      Dimensions: [{ Name: 'TableName', Value: { Ref: expect.stringMatching(/^PlantsTable/) } }],
      Statistic: 'Sum',
      Period: 60,
      Threshold: 0,
      AlarmDescription: expect.stringContaining('docs/operations.md, "When HotPartition fires"'),
    });
    expect(hot(mailed)?.Properties.AlarmActions).toHaveLength(1);
  });

  it('does not roll a deployment back: a hot group is traffic, not the new version', () => {
    const id = Object.entries(plain.template.findResources('AWS::CloudWatch::Alarm')).find(
      ([, alarm]) => (alarm as Alarm).Properties.MetricName === 'ReadKeyRangeThroughputThrottleEvents',
    )?.[0];
    const group = Object.values(plain.template.findResources('AWS::CodeDeploy::DeploymentGroup'))[0];
    expect(id).toBeDefined();
    expect(JSON.stringify(group)).toContain('DynamoDBThrottles');
    expect(JSON.stringify(group)).not.toContain(String(id));
  });

  it('records the keys of throttled requests only (Contributor Insights, throttled-keys mode)', () => {
    plain.template.hasResourceProperties('AWS::DynamoDB::Table', {
      ContributorInsightsSpecification: { Enabled: true, Mode: 'THROTTLED_KEYS' },
    });
  });
});

describe('dashboard', () => {
  const body = (s: Synthesized) =>
    JSON.stringify(Object.values(s.template.findResources('AWS::CloudWatch::Dashboard'))[0]?.Properties.DashboardBody);

  it('shows requests by outcome, latency, errors and throttles, cold starts and INIT', () => {
    for (const title of [
      'Requests by outcome',
      'Latency (ms)',
      'Errors and throttles',
      'Cold starts and INIT duration',
      'DynamoDB read throttles by reason, and read units consumed',
    ]) {
      expect(body(plain)).toContain(title);
    }
    expect(body(plain)).toContain('PlantStore');
    for (const metric of [
      'ReadKeyRangeThroughputThrottleEvents',
      'ReadMaxOnDemandThroughputThrottleEvents',
      'ReadAccountLimitThrottleEvents',
      'ConsumedReadCapacityUnits',
    ]) {
      expect(body(plain)).toContain(metric);
    }
  });

  it('shows plants returned per request, and the ok outcome, only when every request is recorded', () => {
    expect(body(plain)).not.toContain('Plants returned per request');
    expect(body(plain)).not.toContain('\\"outcome\\",\\"ok\\"');
    expect(body(mailed)).toContain('Plants returned per request');
    expect(body(mailed)).toContain('\\"outcome\\",\\"ok\\"');
  });
});
