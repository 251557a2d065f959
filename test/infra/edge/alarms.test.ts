// The edge's templates (test/infra/alarms.test.ts has the others): in us-east-1 one stack, elsewhere the
// service's and the web ACL's in us-east-1. Every alarm of each watches a metric AWS documents, under
// dimensions naming its stack's resources (BlockedFlood: the web ACL's metric name), and with alarmEmail
// mails the address from a topic of its own stack and Region.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { EDGE_WAF_REGION } from '../../../infra/edge/waf.ts';
import { actionsOutsideOwnStack, alarmsOf, alarmsWithSections, undocumentedMetrics } from '../../helpers/alarms.ts';
import { AWS_METRICS } from '../../helpers/aws-metrics.ts';
import { type Synthesized, synth } from '../../helpers/cdk.ts';
import { metricsRead } from '../../helpers/telemetry-data.ts';
import { EDGE_AWS_METRICS } from './aws-metrics.ts';

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

  it('has a section in docs/operations.md', () => {
    const sections = alarmsWithSections();
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
