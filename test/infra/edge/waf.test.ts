// The edge's web ACL as synthesized: in us-east-1 (a stack of its own when the service is elsewhere),
// AWS's managed groups pinned and counting, this ACL's own blocks with the API's Error body, and the
// rate limits per client address, per bearer token and for everyone together.

import { basename } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { MANAGED_RULE_GROUPS, WAF_RESPONSE_HEADERS } from '../../../infra/edge/waf.ts';
import { type Synthesized, synth } from '../../helpers/cdk.ts';

const ACCOUNT = '123456789012';
let ireland: Synthesized;
let virginia: Synthesized;

beforeAll(async () => {
  ireland = await synth({ edge: 'true' }, { env: { account: ACCOUNT, region: 'eu-west-1' } });
  virginia = await synth(
    { edge: 'true', edgeTokenLimit: '120', edgeIpLimit: '900', edgeWindowSeconds: '300', maxRequestsPerSecond: '50' },
    { env: { account: ACCOUNT, region: 'us-east-1' } },
  );
});

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON, read by path
type Json = any;
type Resource = { Properties: Record<string, Json> };
const webAclOf = (template: Synthesized['template']): Resource => {
  const found = Object.values(template.findResources('AWS::WAFv2::WebACL')) as Resource[];
  expect(found).toHaveLength(1);
  return found[0] as Resource;
};
/** The web ACL in the us-east-1 stack of its own (none there: the length check fails). */
const separateWebAcl = () => webAclOf(ireland.beside.EdgeWaf?.template ?? ireland.template);
const rule = (webAcl: Resource, name: string) =>
  (webAcl.Properties.Rules as { Name: string; [key: string]: Json }[]).find((each) => each.Name === name);
const headers = WAF_RESPONSE_HEADERS.map(({ name, value }) => ({ Name: name, Value: value }));

describe('the web ACL', () => {
  it('lives in us-east-1 with CloudFront scope: in a stack of its own when the service is in another Region', () => {
    expect(ireland.beside.EdgeWaf).toBeDefined();
    ireland.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(separateWebAcl().Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(virginia.beside).toEqual({});
    expect(webAclOf(virginia.template).Properties.Scope).toBe('CLOUDFRONT');
  });

  it("is named after its environment's stack, <stack name>EdgeWaf, so two environments never share it or its metrics", async () => {
    const dev = await synth({ env: 'dev', edge: 'true' }, { env: { account: ACCOUNT, region: 'eu-west-1' } });
    expect(basename(dev.beside.EdgeWaf?.templatePath ?? '')).toBe('PlantStore-devEdgeWaf.template.json');
    expect(basename(ireland.beside.EdgeWaf?.templatePath ?? '')).toBe('PlantStoreEdgeWaf.template.json');
    const metricNames = (webAcl: Resource) =>
      (webAcl.Properties.Rules as { VisibilityConfig: { MetricName: string } }[]).map(
        (r) => r.VisibilityConfig.MetricName,
      );
    const devNames = metricNames(webAclOf(dev.beside.EdgeWaf?.template ?? dev.template));
    const prodNames = metricNames(separateWebAcl());
    expect(devNames.every((name) => name.startsWith('PlantStore-dev-'))).toBe(true);
    expect(prodNames.filter((name) => devNames.includes(name))).toEqual([]);
  });

  it('limits each bearer token, keyed on the Authorization header with case and spaces folded', () => {
    expect(rule(separateWebAcl(), 'RatePerBearerToken')?.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [
        {
          Header: {
            Name: 'authorization',
            TextTransformations: [
              { Priority: 0, Type: 'LOWERCASE' },
              { Priority: 1, Type: 'COMPRESS_WHITE_SPACE' },
            ],
          },
        },
      ],
      Limit: 1200,
      EvaluationWindowSec: 60,
    });
  });

  it('limits each client address, whatever token it sends', () => {
    expect(rule(separateWebAcl(), 'RatePerClientIp')?.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: 3000,
      EvaluationWindowSec: 60,
    });
  });

  it('limits everyone together to the ceiling (maxRequestsPerSecond over the window), after each caller’s own limits', () => {
    const webAcl = webAclOf(virginia.template);
    const total = rule(webAcl, 'RateAllCallers');
    expect(total?.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'CONSTANT',
      Limit: 50 * 300,
      EvaluationWindowSec: 300,
      ScopeDownStatement: { SizeConstraintStatement: { ComparisonOperator: 'GE', Size: 0 } },
    });
    for (const each of ['RatePerClientIp', 'RatePerBearerToken']) {
      expect(total?.Priority).toBeGreaterThan(rule(webAcl, each)?.Priority);
    }
  });

  it('takes the per-caller limits and window from context', () => {
    const webAcl = webAclOf(virginia.template);
    expect(rule(webAcl, 'RatePerBearerToken')?.Statement.RateBasedStatement).toMatchObject({
      Limit: 120,
      EvaluationWindowSec: 300,
    });
    expect(rule(webAcl, 'RatePerClientIp')?.Statement.RateBasedStatement).toMatchObject({
      Limit: 900,
      EvaluationWindowSec: 300,
    });
  });

  it('answers a limited caller 429 with the API’s Error body and the headers every answer carries', () => {
    const webAcl = separateWebAcl();
    for (const name of ['RatePerBearerToken', 'RatePerClientIp', 'RateAllCallers']) {
      expect(rule(webAcl, name)?.Action).toEqual({
        Block: {
          CustomResponse: {
            ResponseCode: 429,
            CustomResponseBodyKey: 'TooManyRequests',
            // A client told when to retry: the window frees up within its length.
            ResponseHeaders: [...headers, { Name: 'retry-after', Value: '60' }],
          },
        },
      });
    }
    const body = webAcl.Properties.CustomResponseBodies.TooManyRequests;
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({ error: 429, message: expect.any(String) });
  });

  it('runs AWS’s free managed rule groups counting, each pinned to its static version where it has one', () => {
    const managed = (separateWebAcl().Properties.Rules as Json[]).filter(
      (each) => each.Statement.ManagedRuleGroupStatement,
    );
    expect(managed.map((each) => each.Statement.ManagedRuleGroupStatement)).toEqual(
      MANAGED_RULE_GROUPS.map(({ name, version }) => ({
        VendorName: 'AWS',
        Name: name,
        ...(version && { Version: version }),
      })),
    );
    expect(
      managed.find((each) => each.Name === 'AWSManagedRulesCommonRuleSet')?.Statement.ManagedRuleGroupStatement.Version,
    ).toMatch(/^Version_\d+\.\d+$/);
    for (const each of managed) expect(each.OverrideAction).toEqual({ Count: {} });
  });

  it('blocks what the managed rules match with a 403 in the API’s Error body, after them and before the limits', () => {
    const webAcl = separateWebAcl();
    const blocking = rule(webAcl, 'BlockManagedMatches');
    expect(blocking?.Action).toEqual({
      Block: { CustomResponse: { ResponseCode: 403, CustomResponseBodyKey: 'Forbidden', ResponseHeaders: headers } },
    });
    const labels = blocking?.Statement.OrStatement.Statements.map((each: Json) => each.LabelMatchStatement);
    // A whole namespace only for a pinned group: a rule AWS adds later must not block unseen.
    const pinned = MANAGED_RULE_GROUPS.filter(({ version }) => version !== undefined);
    for (const label of labels.filter((each: Json) => each.Scope === 'NAMESPACE')) {
      expect(pinned.length).toBeGreaterThan(0);
      expect(label.Key).toBe('awswaf:managed:aws:core-rule-set:');
    }
    expect(labels).toContainEqual({
      Scope: 'LABEL',
      Key: 'awswaf:managed:aws:amazon-ip-list:AWSManagedIPReputationList',
    });
    const priority = (name: string) => rule(webAcl, name)?.Priority;
    for (const { name } of MANAGED_RULE_GROUPS) expect(priority('BlockManagedMatches')).toBeGreaterThan(priority(name));
    expect(priority('BlockManagedMatches')).toBeLessThan(priority('RatePerClientIp'));
    const body = webAcl.Properties.CustomResponseBodies.Forbidden;
    expect(JSON.parse(body.Content)).toEqual({ error: 403, message: expect.any(String) });
  });
});

describe('a blocked flood', () => {
  const blockedAlarm = (template: Synthesized['template']) =>
    (Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[]).find(
      (alarm) => alarm.Properties.MetricName === 'BlockedRequests',
    );

  it('alarms beside the web ACL when WAF blocks more a minute than the ceiling admits (blocked requests are billed)', () => {
    // 50 requests a second: 15,000 per 300 s window, 3,000 a minute.
    expect(blockedAlarm(virginia.template)?.Properties).toMatchObject({
      Namespace: 'AWS/WAFV2',
      Statistic: 'Sum',
      Period: 60,
      Threshold: 50 * 60,
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
    });
    // WAF names a web ACL's metrics by its metric name (test/infra/edge/alarms.test.ts checks the table).
    expect(blockedAlarm(virginia.template)?.Properties.Dimensions).toEqual([
      { Name: 'Rule', Value: 'ALL' },
      { Name: 'WebACL', Value: webAclOf(virginia.template).Properties.VisibilityConfig.MetricName },
    ]);
    expect(blockedAlarm(ireland.beside.EdgeWaf?.template ?? ireland.template)).toBeDefined();
  });
});
