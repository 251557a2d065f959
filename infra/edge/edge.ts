// The opt-in edge (-c edge=true): CloudFront and AWS WAF as the only way to the function, whose origin is a
// function URL on `live` that takes only requests CloudFront signs.

import { type Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  FunctionUrlOriginAccessControl,
  HttpVersion,
  OriginRequestPolicy,
  SecurityPolicyProtocol,
  Signing,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { type Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { type Alias, CfnPermission, type FunctionUrl, FunctionUrlAuthType, HttpMethod } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { functionEnvironment } from '../../handlers/lib/environment.ts';
import { SettingsError } from '../context-values.ts';
import { CORS_RULE } from '../cors.ts';
import type { CustomDomain } from '../custom-domain.ts';
import type { Front, FrontOutput, RequestMetrics } from '../front.ts';
import { EDGE_FUNCTION_SETTINGS, viewerFunctionCode } from './viewer-function.ts';
import { EDGE_WAF_REGION, type EdgeSettings, EdgeWebAcl } from './waf.ts';

const ACKNOWLEDGED: Record<string, string> = {
  'AwsSolutions-CFR1':
    'An API for its own users, wherever they are; WAF limits per caller instead. A deployment that must refuse ' +
    'countries adds a geo match rule to the web ACL.',
  'AwsSolutions-CFR3':
    'The function keeps one record of every refused or failed request (requestLog=all: every request), and WAF its ' +
    'metrics and sampled requests of what it refused; CloudFront standard logs would bill a third copy.',
  'AwsSolutions-CFR4':
    'Without a custom domain the default *.cloudfront.net certificate cannot set a minimum TLS version; with one ' +
    '(domainName, certificateArn in us-east-1) the distribution requires TLSv1.2_2021.',
};
/** Route 53 alias records name every CloudFront distribution with this hosted zone id. */
const CLOUDFRONT_HOSTED_ZONE_ID = 'Z2FDTNDATAQYW2';

export interface EdgeProps {
  /** What CloudFront calls: the alias CodeDeploy moves, so canaries and rollbacks work as before. */
  alias: Alias;
  settings: EdgeSettings;
  /** The web ACL of the EdgeWafStack in us-east-1 (stacks.ts); undefined: made here, in a us-east-1 stack. */
  webAclArn: string | undefined;
  /** The API's paths: anything else is answered 404 at the edge, as the HTTP API's routes would. */
  paths: readonly string[];
  /** The API's methods: any other is answered 404 there too. */
  methods: readonly string[];
  /** Browser origins allowed by CORS: answered by the function URL, so preflights must reach it. */
  corsOrigins: string[];
  /** Put on the distribution (its certificate in us-east-1: option.ts checks). */
  customDomain: CustomDomain | undefined;
}

export class Edge extends Construct implements Front {
  readonly distribution: Distribution;
  readonly requests: RequestMetrics;
  readonly environment: Record<string, string>;
  readonly outputs: FrontOutput[];
  /** BlockedFlood, when the web ACL is in this stack (in the web ACL's own stack, it is mailed there). */
  readonly alarms: Alarm[];

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const { alias, settings, corsOrigins, customDomain } = props;
    const cors = corsOrigins.length > 0;
    const url = aliasFunctionUrl(alias, corsOrigins, props.methods);
    const viewerRequest = new CloudFrontFunction(this, 'ViewerRequest', {
      comment: 'Plant store: 404 for what the API does not serve; the caller token past the origin signature',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(
        viewerFunctionCode({ paths: props.paths, methods: [...props.methods, ...(cors ? ['OPTIONS'] : [])] }),
      ),
    });
    const waf = props.webAclArn === undefined ? this.webAclHere(settings) : undefined;
    this.alarms = waf ? [waf.blockedFlood] : [];
    const signing = new FunctionUrlOriginAccessControl(this, 'OriginAccessControl', { signing: Signing.SIGV4_ALWAYS });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Plant store API: AWS WAF per-caller limits, the only way to the function',
      webAclId: props.webAclArn ?? waf?.webAcl.attrArn,
      httpVersion: HttpVersion.HTTP2_AND_3,
      // WAF keys a rate limit on a whole IPv6 address, and one host holds a /64 of them: over IPv4 only,
      // the per-address limit means one host (docs/edge.md).
      enableIpv6: false,
      ...(customDomain && {
        domainNames: [customDomain.domainName],
        certificate: Certificate.fromCertificateArn(this, 'Certificate', customDomain.certificateArn),
        minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
      defaultBehavior: {
        origin: new HttpOrigin(functionUrlHost(url), { originAccessControlId: signing.originAccessControlId }),
        // Every method reaches the viewer function, which answers the API's 404 for what it doesn't serve.
        allowedMethods: AllowedMethods.ALLOW_ALL,
        // Per-user data is never cached at the edge; a function URL routes on its own Host, so the
        // viewer's is not forwarded.
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        // Refused rather than redirected: a redirect would have sent the bearer token in clear first.
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        functionAssociations: [{ function: viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
    });
    allowOnlyDistribution(this, alias, this.distribution.distributionArn);
    for (const [rule, reason] of Object.entries(ACKNOWLEDGED))
      Validations.of(this.distribution).acknowledge({ id: rule, reason });

    const base = customDomain ? `https://${customDomain.domainName}` : undefined;
    this.requests = functionUrlMetrics(alias);
    // The distribution's own name can't be passed (it depends on the function's URL: a cycle), so
    // links name the host the viewer function writes; a custom domain is known at synth.
    this.environment = functionEnvironment({ ...EDGE_FUNCTION_SETTINGS, publicBaseUrl: base });
    const distributionUrl = `https://${this.distribution.distributionDomainName}/`;
    this.outputs = [
      { id: 'ApiUrl', description: 'Base URL, through CloudFront and WAF; GET <ApiUrl>plants', value: distributionUrl },
      {
        id: 'CustomDomainUrl',
        description: 'Base URL on the custom domain; GET <CustomDomainUrl>plants',
        value: base && `${base}/`,
      },
      {
        id: 'DomainTarget',
        description: 'DNS: CNAME (or Route 53 alias) target for the custom domain',
        value: customDomain && this.distribution.distributionDomainName,
      },
      {
        id: 'DomainHostedZoneId',
        description: 'DNS: hosted zone id for a Route 53 alias record',
        value: customDomain && CLOUDFRONT_HOSTED_ZONE_ID,
      },
      // ApiUrl no longer names the Region (deployed/outputs.ts reads this instead).
      { id: 'Region', description: 'The Region of the function and the table', value: Stack.of(this).region },
    ];
  }

  // CloudFront's web ACL lives in us-east-1: made here when this stack is there, else by stacks.ts.
  private webAclHere(settings: EdgeSettings): EdgeWebAcl {
    if (Stack.of(this).region !== EDGE_WAF_REGION) {
      throw new SettingsError(
        `edge=true: the web ACL lives in ${EDGE_WAF_REGION}; synthesize through infra/app.ts (plantStoreStacks)`,
      );
    }
    return new EdgeWebAcl(this, 'Waf', settings);
  }
}

/** CORS answered by the function URL itself, so browsers' preflights pass through CloudFront to it. */
export function aliasFunctionUrl(alias: Alias, corsOrigins: string[], methods: readonly string[]): FunctionUrl {
  return alias.addFunctionUrl({
    authType: FunctionUrlAuthType.AWS_IAM,
    ...(corsOrigins.length > 0 && {
      cors: {
        allowedOrigins: corsOrigins,
        // The API's methods, as API Gateway's own preflight answers them (infra/api.ts).
        allowedMethods: methods.map((method) => HttpMethod[method as keyof typeof HttpMethod]),
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
