// The edge's web ACL (AWS WAF, CloudFront scope, so in us-east-1): AWS's free managed rule groups
// for common attacks (blocked by a rule of this ACL on their labels), then a rate limit per client
// address and one per bearer token, every block answered with the API's Error body. In its own small stack when the service lives in another Region.

import { Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { EdgeSettings } from './edge-settings.ts';

/** CloudFront's web ACLs can only be created there. */
export const EDGE_WAF_REGION = 'us-east-1';
const TOO_MANY = 'TooManyRequests';
const FORBIDDEN = 'Forbidden';

/**
 * The labels of the managed rules that block by default. The groups run in count mode so that
 * the block is this ACL's own, with the API's Error body (a managed group's block can only send
 * WAF's default 403); the IP reputation list's AWSManagedIPDDoSList counts by default, so it
 * stays a label only.
 */
const MANAGED_BLOCK_LABELS = [
  { scope: 'LABEL', key: 'awswaf:managed:aws:amazon-ip-list:AWSManagedIPReputationList' },
  { scope: 'LABEL', key: 'awswaf:managed:aws:amazon-ip-list:AWSManagedReconnaissanceList' },
  { scope: 'NAMESPACE', key: 'awswaf:managed:aws:core-rule-set:' },
  { scope: 'NAMESPACE', key: 'awswaf:managed:aws:known-bad-inputs:' },
] as const;

/**
 * AWS managed rule groups without a subscription fee (each is billed as one rule), fit for a
 * GET-only JSON API. Not included: SQLi (no SQL behind the API), Linux/POSIX/PHP/WordPress
 * (nothing of the kind runs), Bot Control, ATP and ACFP (paid per request, made for browsers
 * and login pages).
 */
export const MANAGED_RULE_GROUPS = [
  // Scanners, botnets and addresses AWS threat intelligence has seen attacking: 25 WCU.
  'AWSManagedRulesAmazonIpReputationList',
  // OWASP-style checks on path, query and headers (a 2 KB query string holds the longest cursor): 700 WCU.
  'AWSManagedRulesCommonRuleSet',
  // Log4Shell, Java deserialization, localhost Host headers, exploitable paths: 200 WCU.
  'AWSManagedRulesKnownBadInputsRuleSet',
] as const;

export class EdgeWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, { windowSeconds, tokenLimit, ipLimit }: EdgeSettings) {
    super(scope, id);
    const visibility = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    // Every block answers in the API's Error shape, never to be stored by a cache on the way: a
    // throttled caller what API Gateway's own throttle would say, a matched attack a 403.
    const block = (responseCode: number, customResponseBodyKey: string) => ({
      block: {
        customResponse: {
          responseCode,
          customResponseBodyKey,
          responseHeaders: [{ name: 'cache-control', value: 'no-store' }],
        },
      },
    });
    const tooMany = block(429, TOO_MANY);
    const managed = MANAGED_RULE_GROUPS.map((name, index) => ({
      name,
      priority: index,
      overrideAction: { count: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
      visibilityConfig: visibility(name),
    }));
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description: 'Plant store edge: managed rule groups, rate limits per client address and per bearer token',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('PlantStoreEdge'),
      customResponseBodies: {
        [TOO_MANY]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ error: 429, message: 'Too many requests from this caller; retry later' }),
        },
        [FORBIDDEN]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ error: 403, message: 'Request refused by the web application firewall' }),
        },
      },
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
          // rotating tokens, and for floods that carry no token at all.
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
      ],
    });
  }
}

/** The web ACL alone, in us-east-1, for a service stack in another Region (a cross-region reference). */
export class EdgeWafStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: StackProps & { settings: EdgeSettings }) {
    super(scope, id, { ...props, crossRegionReferences: true });
    this.webAcl = new EdgeWebAcl(this, 'Edge', props.settings).webAcl;
  }
}
