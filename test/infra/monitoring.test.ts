// Alarms, the optional alarm topic and the dashboard, as synthesized.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { type Synthesized, synth } from '../helpers/cdk.ts';

let plain: Synthesized;
let mailed: Synthesized;

beforeAll(() => {
  plain = synth();
  mailed = synth({ alarmEmail: 'oncall@example.com', logLevel: 'debug', debugSampleRate: '0.05' });
});
afterAll(() => {
  plain?.cleanup();
  mailed?.cleanup();
});

type Alarm = { Properties: Record<string, unknown> };
const alarms = (s: Synthesized) => Object.values(s.template.findResources('AWS::CloudWatch::Alarm')) as Alarm[];
const alarmOn = (s: Synthesized, namespace: string, metricName: string) =>
  alarms(s).find((a) => a.Properties.Namespace === namespace && a.Properties.MetricName === metricName);

describe('alarms', () => {
  it('watch function errors, throttles and p99 duration, and DynamoDB throttling', () => {
    expect(alarmOn(plain, 'AWS/Lambda', 'Errors')?.Properties).toMatchObject({ Threshold: 0, Statistic: 'Sum' });
    expect(alarmOn(plain, 'AWS/Lambda', 'Throttles')?.Properties).toMatchObject({ Threshold: 0 });
    expect(alarmOn(plain, 'AWS/Lambda', 'Duration')?.Properties).toMatchObject({
      ExtendedStatistic: 'p99',
      Threshold: 3000,
    });
    expect(alarmOn(plain, 'AWS/DynamoDB', 'ThrottledRequests')?.Properties.Dimensions).toContainEqual({
      Name: 'Operation',
      Value: 'Query',
    });
  });

  it('watch the 5xx rate of the API rather than its count', () => {
    const rate = alarms(plain).find((a) => Array.isArray(a.Properties.Metrics));
    expect(rate?.Properties.Threshold).toBe(1);
    expect(JSON.stringify(rate?.Properties.Metrics)).toMatch(/"MetricName":"5xx".*"MetricName":"Count"/);
  });

  it('treat no traffic as healthy', () => {
    expect(alarms(plain)).toHaveLength(5);
    for (const alarm of alarms(plain)) expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
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

describe('dashboard', () => {
  it('shows requests by outcome, latency, errors and plants returned', () => {
    const [dashboard] = Object.values(plain.template.findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard?.Properties.DashboardBody);
    for (const title of [
      'Requests by outcome',
      'Latency (ms)',
      'Errors and throttles',
      'Plants returned per request',
    ]) {
      expect(body).toContain(title);
    }
    expect(body).toContain('PlantStore');
    expect(body).toContain('PlantsReturned');
  });
});

describe('function logging settings', () => {
  it('names the service and namespace the dashboard reads, at INFO with no debug sampling by default', () => {
    plain.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          POWERTOOLS_SERVICE_NAME: 'plant-store',
          POWERTOOLS_METRICS_NAMESPACE: 'PlantStore',
          POWERTOOLS_LOG_LEVEL: 'INFO',
          POWERTOOLS_LOGGER_SAMPLE_RATE: '0',
        }),
      },
    });
  });

  it('takes the log level and debug sampling from context', () => {
    mailed.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ POWERTOOLS_LOG_LEVEL: 'DEBUG', POWERTOOLS_LOGGER_SAMPLE_RATE: '0.05' }),
      },
    });
  });
});
