// The edge's rows of the documented-metrics table (test/helpers/aws-metrics.ts says what a row holds):
// the function URL's metrics, which count requests in the HTTP API's place, and WAF's.

import type { DocumentedMetrics } from '../../helpers/aws-metrics.ts';

const READ = '2026-11-29';

export const EDGE_AWS_METRICS: readonly DocumentedMetrics[] = [
  {
    namespace: 'AWS/Lambda',
    metrics: ['UrlRequestCount', 'Url4xxCount', 'Url5xxCount', 'UrlRequestLatency'],
    dimensionSets: [['FunctionName'], ['FunctionName', 'Resource'], ['FunctionName', 'Resource', 'ExecutedVersion']],
    values: {
      FunctionName: { ref: 'AWS::Lambda::Function' },
      // "A specific function URL: the function name with $LATEST or one of its aliases."
      Resource: { aliasOf: 'AWS::Lambda::Function' },
      ExecutedVersion: { getAtt: ['AWS::Lambda::Version', 'Version'] },
    },
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
