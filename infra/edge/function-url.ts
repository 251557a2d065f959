// The edge's origin: a function URL on `live` that takes only requests CloudFront signs, and its metrics.

import { type Duration, Fn } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { type Alias, CfnPermission, type FunctionUrl, FunctionUrlAuthType, HttpMethod } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { CORS_RULE } from '../cors.ts';
import type { RequestMetrics } from '../front.ts';

/** CORS answered by the function URL itself, so browsers' preflights pass through CloudFront to it. */
export function aliasFunctionUrl(alias: Alias, corsOrigins: string[]): FunctionUrl {
  return alias.addFunctionUrl({
    authType: FunctionUrlAuthType.AWS_IAM,
    ...(corsOrigins.length > 0 && {
      cors: {
        allowedOrigins: corsOrigins,
        allowedMethods: [HttpMethod.GET],
        allowedHeaders: CORS_RULE.allowHeaders,
        exposedHeaders: CORS_RULE.exposeHeaders,
        maxAge: CORS_RULE.maxAge,
      },
    }),
  });
}

/** `https://<id>.lambda-url.<region>.on.aws/` → its host, at deploy (the URL is a token at synth). */
export const functionUrlHost = ({ url }: FunctionUrl): string => Fn.select(2, Fn.split('/', url));

/** The URL's only caller: CloudFront, for this distribution; both actions, as Lambda asks since October 2025. */
export function allowOnlyDistribution(scope: Construct, alias: Alias, distributionArn: string): void {
  const grant = { principal: 'cloudfront.amazonaws.com', functionName: alias.functionArn, sourceArn: distributionArn };
  new CfnPermission(scope, 'InvokeUrlFromDistribution', { ...grant, action: 'lambda:InvokeFunctionUrl' });
  new CfnPermission(scope, 'InvokeFromDistribution', {
    ...grant,
    action: 'lambda:InvokeFunction',
    invokedViaFunctionUrl: true,
  });
}

/** The alias's URL's own metrics (Lambda developer guide, "Monitoring Lambda function URLs"). */
export function functionUrlMetrics(alias: Alias): RequestMetrics {
  const name = alias.version.lambda.functionName;
  const url = (metricName: string, statistic: string, period: Duration) =>
    new Metric({
      namespace: 'AWS/Lambda',
      metricName,
      // Named, not referenced: the deployment group's alarms must not depend on the alias it moves.
      dimensionsMap: { FunctionName: name, Resource: `${name}:${alias.aliasName}` },
      statistic,
      period,
    });
  return {
    source: 'function URL',
    count: (period) => url('UrlRequestCount', 'Sum', period),
    clientErrors: (period) => url('Url4xxCount', 'Sum', period),
    serverErrors: (period) => url('Url5xxCount', 'Sum', period),
    latency: (statistic, period) => url('UrlRequestLatency', statistic, period),
  };
}
