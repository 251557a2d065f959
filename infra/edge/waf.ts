// The edge's web ACL (CloudFront scope, us-east-1): managed rules and rate limits, blocks in the Error shape.

import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { SERVICE_TITLE } from '../../handlers/lib/names.ts';
import { mailingTopic } from '../alarm-mail.ts';

/** The edge's settings (option.ts reads them): the web ACL's rate limits. */
export interface EdgeSettings {
  /** WAF's look-back window, in seconds: one of the values WAF takes. */
  windowSeconds: 60 | 120 | 300 | 600;
  /** Requests one bearer token may make per window before WAF answers 429. */
  tokenLimit: number;
  /** Requests one client address may make per window, whatever tokens it sends. */
  ipLimit: number;
  /** Requests everyone together may make per window: the stage throttle's part, which the edge replaces. */
  totalLimit: number;
}

/** CloudFront's web ACLs can only be created there. */
export const EDGE_WAF_REGION = 'us-east-1';
/** The web ACL's stack beside the service's, named after it: PlantStoreEdgeWaf, PlantStore-devEdgeWaf. */
export const EDGE_WAF_STACK = { suffix: 'EdgeWaf', region: EDGE_WAF_REGION } as const;
const TOO_MANY = 'TooManyRequests';
const FORBIDDEN = 'Forbidden';

/** What WAF answers when it blocks (test/openapi.test.ts checks them against the contract), and their headers. */
export const WAF_ANSWERS = {
  [TOO_MANY]: { status: 429, message: 'Too many requests from this caller; retry later' },
  [FORBIDDEN]: { status: 403, message: 'Request refused by the web application firewall' },
} as const;
export const WAF_RESPONSE_HEADERS = [
  { name: 'cache-control', value: 'no-store' },
  { name: 'x-content-type-options', value: 'nosniff' },
] as const;

/**
 * The managed rules' labels blocked here, so that a block sends the API's Error body (a group's own can't);
 * a namespace only for a group pinned to a version, so a rule AWS adds blocks nothing until the pin is raised.
 */
const MANAGED_BLOCK_LABELS = [
  { scope: 'LABEL', key: 'awswaf:managed:aws:amazon-ip-list:AWSManagedIPReputationList' },
  { scope: 'LABEL', key: 'awswaf:managed:aws:amazon-ip-list:AWSManagedReconnaissanceList' },
  { scope: 'NAMESPACE', key: 'awswaf:managed:aws:core-rule-set:' },
] as const;

/**
 * AWS managed rule groups without a fee that fit a GET-only JSON API, with their pinned versions (none: the
 * group has none). SQLi, OS, PHP, known-bad-inputs and the paid bot and account groups don't apply here.
 */
export const MANAGED_RULE_GROUPS = [
  // Scanners, botnets and addresses AWS threat intelligence has seen attacking: 25 WCU. Its lists
  // change continuously by design; only its two named labels block.
  { name: 'AWSManagedRulesAmazonIpReputationList', version: undefined },
  // OWASP-style checks on path, query and headers (a 2 KB query string holds the longest cursor): 700
  // WCU. Version 1.19: the newest static version in AWS's changelog (2025-08-14).
  { name: 'AWSManagedRulesCommonRuleSet', version: 'Version_1.19' },
] as const;

export class EdgeWebAcl extends Construct {
  readonly webAcl: CfnWebACL;
  /** Blocks above the ceiling's rate in 3 of 5 minutes: a refused flood is still billed (lab/docs/cost.md). */
  readonly blockedFlood: Alarm;

  constructor(scope: Construct, id: string, { windowSeconds, tokenLimit, ipLimit, totalLimit }: EdgeSettings) {
    super(scope, id);
    // Prefixed with the environment's stack name: two environments' rules never share a metric.
    const prefix = Stack.of(this).stackName.replace(/EdgeWaf$/, '');
    const visibility = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      metricName: `${prefix}-${metricName}`,
      sampledRequestsEnabled: true,
    });
    const webAclVisibility = visibility(`${SERVICE_TITLE}Edge`);
    // Every block answers in the API's Error shape, never to be stored by a cache on the way: a
    // throttled caller what API Gateway's own throttle would say, a matched attack a 403.
    const block = (
      responseCode: number,
      customResponseBodyKey: string,
      extra: { name: string; value: string }[] = [],
    ) => ({
      block: {
        customResponse: {
          responseCode,
          customResponseBodyKey,
          responseHeaders: [...WAF_RESPONSE_HEADERS, ...extra],
        },
      },
    });
    // A rate limit frees up within its window: say so, as the function's 503 does (RFC 9110 §10.2.3).
    const tooMany = block(429, TOO_MANY, [{ name: 'retry-after', value: String(windowSeconds) }]);
    const managed = MANAGED_RULE_GROUPS.map(({ name, version }, index) => ({
      name,
      priority: index,
      overrideAction: { count: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ...(version && { version }) } },
      visibilityConfig: visibility(name),
    }));
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description:
        'Plant store edge: managed rule groups, rate limits per client address, per bearer token and in total',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: webAclVisibility,
      customResponseBodies: Object.fromEntries(
        Object.entries(WAF_ANSWERS).map(([key, { status, message }]) => [
          key,
          { contentType: 'APPLICATION_JSON', content: JSON.stringify({ error: status, message }) },
        ]),
      ),
      rules: [
        ...managed,
        {
          // What the managed groups matched (their labels), blocked here with the Error body.
          name: 'BlockManagedMatches',
          priority: managed.length,
          action: block(403, FORBIDDEN),
          statement: {
            orStatement: { statements: MANAGED_BLOCK_LABELS.map((label) => ({ labelMatchStatement: label })) },
          },
          visibilityConfig: visibility('BlockManagedMatches'),
        },
        {
          // Every request from one address, whatever token it carries: the backstop for a caller
          // rotating tokens, and for floods that carry no token at all. WAF keys IPv6 by the
          // whole address (no /64 key exists), so the distribution serves IPv4 only (edge.ts).
          name: 'RatePerClientIp',
          priority: managed.length + 1,
          action: tooMany,
          statement: {
            rateBasedStatement: { aggregateKeyType: 'IP', limit: ipLimit, evaluationWindowSec: windowSeconds },
          },
          visibilityConfig: visibility('RatePerClientIp'),
        },
        {
          // One count per bearer token. WAF cannot read a JWT claim, so the key is the header itself,
          // lower-cased with runs of spaces folded so that "bearer  X" and "Bearer X" share a count.
          // Requests without the header are not counted here (the address rule still counts them).
          name: 'RatePerBearerToken',
          priority: managed.length + 2,
          action: tooMany,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [
                {
                  header: {
                    name: 'authorization',
                    textTransformations: [
                      { priority: 0, type: 'LOWERCASE' },
                      { priority: 1, type: 'COMPRESS_WHITE_SPACE' },
                    ],
                  },
                },
              ],
              limit: tokenLimit,
              evaluationWindowSec: windowSeconds,
            },
          },
          visibilityConfig: visibility('RatePerBearerToken'),
        },
        {
          // Every request together, the stage throttle's job (a function URL has none); last, so what a
          // caller's own limit refused is not counted. The scope-down matches every request.
          name: 'RateAllCallers',
          priority: managed.length + 3,
          action: tooMany,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'CONSTANT',
              limit: totalLimit,
              evaluationWindowSec: windowSeconds,
              scopeDownStatement: {
                sizeConstraintStatement: {
                  fieldToMatch: { uriPath: {} },
                  comparisonOperator: 'GE',
                  size: 0,
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: visibility('RateAllCallers'),
        },
      ],
    });

    // WAF's metrics name a web ACL by its metric name, not its name, with Rule ALL for all its rules; a
    // CloudFront web ACL's have no Region dimension (AWS WAF Developer Guide, "metrics and dimensions").
    const blockedPerMinute = Math.ceil((totalLimit / windowSeconds) * 60);
    this.blockedFlood = new Alarm(this, 'BlockedFlood', {
      metric: new Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'BlockedRequests',
        dimensionsMap: { WebACL: webAclVisibility.metricName, Rule: 'ALL' },
        statistic: 'Sum',
        period: Duration.minutes(1),
      }),
      threshold: blockedPerMinute,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `WAF blocked more than ${blockedPerMinute} requests a minute (the ceiling's rate), in 3 of 5 minutes: each is billed`,
    });
  }
}

export interface EdgeWafStackProps extends StackProps {
  settings: EdgeSettings;
  /** Where the service's alarms are mailed (-c alarmEmail): BlockedFlood too, from a topic here. */
  alarmEmail: string | undefined;
}

/** The web ACL alone, in us-east-1, for a service stack in another Region (a cross-region reference). */
export class EdgeWafStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, { settings, alarmEmail, ...props }: EdgeWafStackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    const edge = new EdgeWebAcl(this, 'Edge', settings);
    this.webAcl = edge.webAcl;
    // The alarm is in us-east-1, and its action must be too: the service stack's topic can't serve.
    if (alarmEmail) edge.blockedFlood.addAlarmAction(new SnsAction(mailingTopic(this, alarmEmail)));
  }
}
