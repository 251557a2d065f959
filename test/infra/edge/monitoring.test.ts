// The edge's templates (test/infra/alarms.test.ts has the others): in us-east-1 one stack, elsewhere the
// service's and the web ACL's in us-east-1. Every alarm of each watches a metric AWS documents (the edge's
// rows of the documented-metrics table are here: the function URL's metrics, which count requests in the
// HTTP API's place, and WAF's), under dimensions naming its stack's resources (BlockedFlood: the web ACL's
// metric name), with alarmEmail mails the address from a topic of its own stack and Region, and every alarm
// and dashboard widget has data (test/helpers/telemetry-data.ts).

import { beforeAll, describe, expect, it } from '@jest/globals';
import { EDGE_WAF_REGION } from '../../../infra/edge/waf.ts';
import { actionsOutsideOwnStack, alarmsOf, alarmsWithSections, undocumentedMetrics } from '../../helpers/alarms.ts';
import { AWS_METRICS, type DocumentedMetrics, LAMBDA_FUNCTION_DIMENSIONS } from '../../helpers/aws-metrics.ts';
import { type Synthesized, synth } from '../../helpers/cdk.ts';
import { expectEveryMetricPublished, metricsRead, REQUESTS } from '../../helpers/telemetry-data.ts';

const READ = '2026-11-29';

const EDGE_AWS_METRICS: readonly DocumentedMetrics[] = [
  {
    namespace: 'AWS/Lambda',
    metrics: ['UrlRequestCount', 'Url4xxCount', 'Url5xxCount', 'UrlRequestLatency'],
    // Resource: "a specific function URL: the function name with $LATEST or one of its aliases."
    ...LAMBDA_FUNCTION_DIMENSIONS,
    source: {
      page: 'Lambda Developer Guide, "Monitoring Lambda function URLs"',
      url: 'https://docs.aws.amazon.com/lambda/latest/dg/urls-monitoring.html',
      read: READ,
      note:
        'The page names the three dimensions, not their combinations (as for the function’s metrics). Its ' +
        'archived 2022 copy named the error counts Url4xxError and Url5xxError; the live page says Url4xxCount and ' +
        'Url5xxCount.',
    },
  },
  {
    namespace: 'AWS/WAFV2',
    metrics: ['BlockedRequests'],
    // Region is "required for all protected resource types except for Amazon CloudFront distributions".
    dimensionSets: [['WebACL', 'Rule']],
    values: {
      // "WebACL: the metric name of the WebACL", which waf.ts sets; not its name.
      WebACL: { property: ['AWS::WAFv2::WebACL', 'VisibilityConfig.MetricName'] },
      Rule: {
        anyOf: [{ literal: ['ALL'] }, { property: ['AWS::WAFv2::WebACL', 'Rules[].VisibilityConfig.MetricName'] }],
      },
    },
    source: {
      page: 'AWS WAF Developer Guide, "AWS WAF metrics and dimensions"',
      url: 'https://docs.aws.amazon.com/waf/latest/developerguide/waf-metrics.html',
      read: READ,
      note:
        'The copies read here elide the Rule dimension’s values ("see the documentation website"): ALL for the ' +
        'web ACL’s totals is not on them. CloudFront’s web ACLs publish in us-east-1. An account confirms: aws ' +
        'cloudwatch list-metrics --region us-east-1 --namespace AWS/WAFV2 --metric-name BlockedRequests.',
    },
  },
];

const EMAIL = 'oncall@example.com';
const TABLE = [...AWS_METRICS, ...EDGE_AWS_METRICS];
const at = (region: string) => ({ env: { account: '123456789012', region } });

let synths: Record<'here' | 'beside' | 'hereMailed' | 'besideMailed', Synthesized>;
beforeAll(async () => {
  const [here, beside, hereMailed, besideMailed] = await Promise.all([
    synth({ edge: 'true' }, at(EDGE_WAF_REGION)),
    synth({ edge: 'true' }, at('eu-west-1')),
    synth({ edge: 'true', alarmEmail: EMAIL }, at(EDGE_WAF_REGION)),
    synth({ edge: 'true', alarmEmail: EMAIL }, at('eu-west-1')),
  ]);
  synths = { here, beside, hereMailed, besideMailed } as typeof synths;
});

/** BlockedFlood of a synth, in whichever of its stacks holds the web ACL. */
const blockedFlood = (s: Synthesized) => {
  const found = alarmsOf(s).filter((alarm) => alarm.name === 'BlockedFlood');
  expect(found).toHaveLength(1);
  return found[0] as (typeof found)[number];
};

describe('every alarm of the edge’s templates', () => {
  it('watches a metric AWS documents, under a documented dimension set whose values name its stack’s resources', () => {
    for (const [name, s] of Object.entries(synths))
      expect([name, undocumentedMetrics(alarmsOf(s), TABLE)]).toEqual([name, []]);
  });

  it('tells only topics of its own stack, and reaches someone exactly when alarmEmail is set', () => {
    for (const [name, s] of Object.entries(synths)) {
      const mailed = name.endsWith('Mailed');
      expect([name, actionsOutsideOwnStack(alarmsOf(s))]).toEqual([name, []]);
      const silent = alarmsOf(s).filter((alarm) => alarm.actions.length === 0 && !(mailed && alarm.rollsBack));
      expect([name, silent.length]).toEqual([name, mailed ? 0 : alarmsOf(s).length]);
    }
  });

  it('has a section in docs/operations.md, or the edge’s own in docs/edge.md', () => {
    const sections = new Set([...alarmsWithSections(), ...alarmsWithSections('docs/edge.md')]);
    const names = Object.values(synths).flatMap((s) => alarmsOf(s).map((alarm) => alarm.name));
    expect(names.filter((name) => !sections.has(name))).toEqual([]);
  });

  it('leaves no edge row of the documented-metrics table unread', () => {
    const read = Object.values(synths).flatMap((s) => metricsRead(s));
    const unread = EDGE_AWS_METRICS.flatMap(({ namespace, metrics }) =>
      metrics.filter((metric) => !read.some((m) => m.namespace === namespace && m.name === metric)),
    );
    expect(unread).toEqual([]);
  });
});

describe('BlockedFlood', () => {
  it('names the web ACL by its metric name, which the web ACL sets, with Rule ALL and no Region', () => {
    for (const s of [synths.here, synths.beside]) {
      const alarm = blockedFlood(s);
      const [webAcl] = Object.values(alarm.resources).filter(({ Type }) => Type === 'AWS::WAFv2::WebACL');
      expect(alarm.metrics).toEqual([
        {
          Namespace: 'AWS/WAFV2',
          MetricName: 'BlockedRequests',
          Dimensions: [
            { Name: 'Rule', Value: 'ALL' },
            { Name: 'WebACL', Value: webAcl?.Properties.VisibilityConfig.MetricName },
          ],
        },
      ]);
    }
    // The web ACL's name, CloudFormation's, as the alarm named it before: refused by the table.
    const alarm = blockedFlood(synths.beside);
    const byName = {
      ...alarm,
      metrics: alarm.metrics.map((m) => ({
        ...m,
        Dimensions: [
          { Name: 'Rule', Value: 'ALL' },
          {
            Name: 'WebACL',
            Value: { 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': ['EdgeWebAcl8DEA6539', 'Arn'] }] }] },
          },
        ],
      })),
    };
    expect(undocumentedMetrics([byName], TABLE)).toEqual([
      expect.stringMatching(/^PlantStoreEdgeWaf BlockedFlood: .*WebACL=/),
    ]);
  });

  it('with alarmEmail, mails the same address from a topic in us-east-1, beside the web ACL', () => {
    for (const s of [synths.hereMailed, synths.besideMailed]) {
      const alarm = blockedFlood(s);
      const [action] = alarm.actions;
      const topic = action?.Ref;
      const subscriptions = Object.values(alarm.resources).filter(
        ({ Type, Properties }) => Type === 'AWS::SNS::Subscription' && Properties.TopicArn?.Ref === topic,
      );
      expect(subscriptions.map(({ Properties }) => [Properties.Protocol, Properties.Endpoint])).toEqual([
        ['email', EMAIL],
      ]);
    }
    // Outside us-east-1 the web ACL's stack is its own, there: its topic is too.
    expect(blockedFlood(synths.besideMailed).stack).toBe('PlantStoreEdgeWaf');
    expect(synths.besideMailed.beside.EdgeWaf?.template.findResources('AWS::SNS::Topic')).not.toEqual({});
  });
});

let edge: Synthesized;
beforeAll(async () => {
  edge = await synth({ edge: 'true' }, { env: { account: '123456789012', region: 'us-east-1' } });
});

it('every alarm and dashboard widget reads a metric that gets data, with the dimensions it is published under', () => {
  expect(edge.template.findResources('AWS::Lambda::Url')).not.toEqual({});
  expectEveryMetricPublished(edge, REQUESTS, [...AWS_METRICS, ...EDGE_AWS_METRICS]);
});
