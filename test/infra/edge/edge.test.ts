// The opt-in edge as synthesized (-c edge=true): its settings from CDK context (defaults derived from the
// ceiling's rate, WAF's bounds, the combinations refused at synth); no way to the function but through the
// distribution (no HTTP API, a function URL on the live alias that only this distribution may call, signing
// always), the distribution and its viewer function, the function's variables, the metrics and outputs it
// registers in the HTTP API's place. Without the flag none of it exists. The web ACL's rules are in
// waf.test.ts; cdk-nag and cfn-lint pass on every template.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { AllowedMethods } from 'aws-cdk-lib/aws-cloudfront';
import { functionEnvironment } from '../../../handlers/lib/environment.ts';
import { OPERATIONS } from '../../../handlers/lib/operations.ts';
import { LIVE_ALIAS } from '../../../infra/delivery.ts';
import { option, readEdge } from '../../../infra/edge/option.ts';

import { EDGE_FUNCTION_SETTINGS } from '../../../infra/edge/viewer-function.ts';
import { readSettings } from '../../../infra/settings.ts';
import { STACK, type Synthesized, synth } from '../../helpers/cdk.ts';
import { cfnLint } from '../../helpers/cfn-lint.ts';

/** The service's settings with the edge's, as the app reads them (infra/stacks.ts). */
const from = (context: Record<string, unknown>) => {
  const read = (key: string) => context[key];
  const service = readSettings(read, Object.keys(context), option.contextKeys);
  return { ...service, edge: readEdge(read, service.ceiling.maxRequestsPerSecond) };
};

describe('the edge settings', () => {
  it('are off by default', () => {
    expect(from({}).edge).toBeUndefined();
  });

  it('give one token a fifth, one address half and everyone all of the ceiling’s rate (maxRequestsPerSecond) over a one-minute window', () => {
    const rate = (context: Record<string, unknown>) => from(context).ceiling.maxRequestsPerSecond;
    const defaults = { edge: 'true' };
    expect(from(defaults).edge).toEqual({
      windowSeconds: 60,
      tokenLimit: rate(defaults) * 60 * 0.2,
      ipLimit: rate(defaults) * 60 * 0.5,
      totalLimit: rate(defaults) * 60,
    });
    expect(from({ edge: 'true', maxRequestsPerSecond: '200', edgeWindowSeconds: '300' }).edge).toEqual({
      windowSeconds: 300,
      tokenLimit: 12_000,
      ipLimit: 30_000,
      totalLimit: 60_000,
    });
  });

  it('take a custom domain for the distribution, its certificate in us-east-1', () => {
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';
    const settings = from({ edge: 'true', domainName: 'plants.example.com', certificateArn });
    expect(settings.edge).toBeDefined();
    expect(settings.customDomain).toEqual({ domainName: 'plants.example.com', certificateArn, basePath: undefined });
  });

  it('take explicit limits', () => {
    expect(from({ edge: 'true', edgeTokenLimit: '120', edgeIpLimit: '900' }).edge).toMatchObject({
      tokenLimit: 120,
      ipLimit: 900,
    });
  });

  it.each([
    [{ edge: 'true', edgeSecretGeneration: '2' }, 'Unknown context key "edgeSecretGeneration"'],
    [{ edge: 'true', edgeTokenLimit: '9' }, 'edgeTokenLimit must be an integer from 10 to 2000000000, got "9"'],
    [{ edge: 'true', edgeIpLimit: '1e3' }, 'edgeIpLimit must be an integer from 10 to 2000000000'],
    [{ edge: 'true', edgeWindowSeconds: '30' }, 'edgeWindowSeconds must be one of 60, 120, 300, 600, got "30"'],
    [{ edgeTokenLimit: '100' }, 'edgeTokenLimit needs edge=true'],
    [{ edge: 'yes' }, 'edge must be true or false, got "yes"'],
    [
      {
        edge: 'true',
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab',
      },
      'edge=true puts domainName on the CloudFront distribution, whose certificate must be in ACM in us-east-1',
    ],
    [{ edge: 'true', samLocal: 'true' }, 'edge=true and samLocal=true cannot be combined'],
    [{ edge: 'true', jwtAuthorizer: 'true' }, 'edge=true and jwtAuthorizer=true cannot be combined'],
    [
      {
        edge: 'true',
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab',
        basePath: 'v1',
      },
      'edge=true and basePath cannot be combined',
    ],
    [{ edgeLimit: '5' }, 'Unknown context key "edgeLimit" (did you mean "edgeIpLimit"?)'],
  ])('refuse %j', (context, message) => {
    expect(() => from(context)).toThrow(message);
  });
});

const ACCOUNT = '123456789012';
/** CloudFront's managed policies, by the ids AWS documents. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const CERTIFICATE = `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab`;

let plain: Synthesized;
let ireland: Synthesized;
let virginia: Synthesized;

beforeAll(async () => {
  plain = await synth();
  ireland = await synth({ edge: 'true' }, { env: { account: ACCOUNT, region: 'eu-west-1' } });
  virginia = await synth(
    {
      edge: 'true',
      corsOrigins: 'https://app.example.com',
      alarmEmail: 'oncall@example.com',
      domainName: 'plants.example.com',
      certificateArn: CERTIFICATE,
    },
    { env: { account: ACCOUNT, region: 'us-east-1' } },
  );
});

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON, read by path
type Json = any;
type Resource = { Properties: Record<string, Json>; DependsOn?: string[] };
const resources = (s: Synthesized, type: string) =>
  Object.entries(s.template.findResources(type)) as [string, Resource][];
const onlyOf = (s: Synthesized, type: string): [string, Resource] => {
  const found = resources(s, type);
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};
const distribution = (s: Synthesized) => onlyOf(s, 'AWS::CloudFront::Distribution');
const functionEnv = (s: Synthesized): Record<string, Json> => {
  const [, fn] = resources(s, 'AWS::Lambda::Function').find(([id]) => id.startsWith('ListPlantsFunction')) ?? [];
  return fn?.Properties.Environment.Variables;
};
const both = () => [ireland, virginia];

describe('without -c edge=true', () => {
  it('adds no distribution, web ACL or function URL, and keeps a single environment-agnostic stack', async () => {
    for (const type of ['AWS::CloudFront::Distribution', 'AWS::WAFv2::WebACL', 'AWS::Lambda::Url']) {
      plain.template.resourceCountIs(type, 0);
    }
    expect(plain.beside).toEqual({});
    expect(functionEnv(plain)).not.toHaveProperty('AUTH_TOKEN_HEADER');
    // Environment-agnostic, as the CDK CLI reads the cloud assembly: any account, any Region.
    const manifest = JSON.parse(readFileSync(join(plain.outdir, 'manifest.json'), 'utf8'));
    expect(manifest.artifacts[STACK].environment).toBe('aws://unknown-account/unknown-region');
  });
});

describe('-c edge=true without a Region', () => {
  it('is refused at synth, naming what to set: a cross-region reference is resolved then', async () => {
    await expect(synth({ edge: 'true' })).rejects.toThrow(
      'edge=true needs the target Region: set AWS_REGION or use a profile that names one',
    );
  });
});

describe('no way around the edge', () => {
  it('creates no API Gateway resource: the HTTP API, its stage and its routes are not made', () => {
    for (const s of both()) {
      const types = Object.values(s.template.toJSON().Resources).map((each) => (each as { Type: string }).Type);
      expect(types.filter((type) => type.startsWith('AWS::ApiGateway'))).toEqual([]);
    }
  });

  it('serves the function only through a URL on the live alias that requires IAM signatures', () => {
    for (const s of both()) {
      const urls = resources(s, 'AWS::Lambda::Url');
      expect(urls.length).toBeGreaterThan(0);
      for (const [, url] of urls) {
        expect(url.Properties).toMatchObject({
          AuthType: 'AWS_IAM',
          Qualifier: LIVE_ALIAS,
          TargetFunctionArn: { 'Fn::GetAtt': [expect.stringMatching(/^ListPlantsFunction/), 'Arn'] },
        });
      }
    }
  });

  it('lets only CloudFront, for this distribution, invoke the alias: every permission of the stack says so', () => {
    for (const s of both()) {
      const [distributionId] = distribution(s);
      const permissions = resources(s, 'AWS::Lambda::Permission');
      expect(permissions.map(([, p]) => p.Properties.Action).sort()).toEqual([
        'lambda:InvokeFunction',
        'lambda:InvokeFunctionUrl',
      ]);
      for (const [, permission] of permissions) {
        expect(permission.Properties).toMatchObject({
          Principal: 'cloudfront.amazonaws.com',
          FunctionName: { Ref: expect.stringMatching(/^DeliveryLiveAlias/) },
          SourceArn: {
            'Fn::Join': ['', [`arn:${'aws'}:cloudfront::${ACCOUNT}:distribution/`, { Ref: distributionId }]],
          },
        });
      }
      const invoke = permissions.find(([, p]) => p.Properties.Action === 'lambda:InvokeFunction');
      expect(invoke?.[1].Properties.InvokedViaFunctionUrl).toBe(true);
    }
  });

  it('signs every origin request (origin access control for Lambda, always, SigV4) to the function URL’s host', () => {
    for (const s of both()) {
      const [oacId, oac] = onlyOf(s, 'AWS::CloudFront::OriginAccessControl');
      expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
        OriginAccessControlOriginType: 'lambda',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      });
      const [origin] = distribution(s)[1].Properties.DistributionConfig.Origins;
      expect(origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
      expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
      const [urlId] = onlyOf(s, 'AWS::Lambda::Url');
      expect(origin.DomainName).toEqual({
        'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [urlId, 'FunctionUrl'] }] }],
      });
      expect(origin.OriginCustomHeaders).toBeUndefined();
    }
  });

  it('leaves no shared secret behind: no Secrets Manager secret, no origin header', () => {
    for (const s of both()) s.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
  });

  it('keeps the canary: CodeDeploy moves the very alias whose URL CloudFront calls', () => {
    for (const s of both()) {
      const [, group] = onlyOf(s, 'AWS::CodeDeploy::DeploymentGroup');
      expect(group.Properties.AlarmConfiguration.Enabled).toBe(true);
      const [, alias] = onlyOf(s, 'AWS::Lambda::Alias');
      expect(alias.Properties.Name).toBe(LIVE_ALIAS);
      expect(alias.DependsOn).toContainEqual(expect.stringMatching(/^DeliveryDeploymentGroup/));
    }
  });
});

describe('the distribution', () => {
  it('is guarded by the web ACL: across Regions through the us-east-1 stack’s output, else directly', () => {
    expect(distribution(ireland)[1].Properties.DistributionConfig.WebACLId).toEqual({
      'Fn::GetStackOutput': expect.objectContaining({ StackName: 'PlantStoreEdgeWaf', Region: 'us-east-1' }),
    });
    expect(distribution(virginia)[1].Properties.DistributionConfig.WebACLId).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^EdgeWafWebAcl/), 'Arn'],
    });
  });

  it('caches nothing, forwards the caller’s headers but not Host, serves HTTPS only and IPv4 only', () => {
    for (const s of both()) {
      const config = distribution(s)[1].Properties.DistributionConfig;
      expect(config.DefaultCacheBehavior).toMatchObject({
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'https-only',
      });
      // WAF keys an IPv6 caller by its whole address; one host holds a /64 of them.
      expect(config.IPV6Enabled).toBe(false);
    }
  });

  it('runs its viewer function on every request, whatever the method, so that it answers what the API does not serve', () => {
    for (const s of both()) {
      const [functionId, fn] = onlyOf(s, 'AWS::CloudFront::Function');
      expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
      const behavior = distribution(s)[1].Properties.DistributionConfig.DefaultCacheBehavior;
      expect(behavior.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ]);
      expect(behavior.AllowedMethods).toEqual(AllowedMethods.ALLOW_ALL.methods);
    }
  });

  it('takes a custom domain with a us-east-1 certificate, TLS 1.2 at least, and outputs its DNS target', () => {
    const config = distribution(virginia)[1].Properties.DistributionConfig;
    expect(config.Aliases).toEqual(['plants.example.com']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: CERTIFICATE,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    const outputs = virginia.template.findOutputs('*');
    expect(outputs.CustomDomainUrl?.Value).toBe('https://plants.example.com/');
    expect(outputs.DomainTarget?.Value).toEqual({ 'Fn::GetAtt': [distribution(virginia)[0], 'DomainName'] });
    expect(outputs.DomainHostedZoneId?.Value).toBe('Z2FDTNDATAQYW2');
  });

  it('lets browsers’ preflights reach the function URL’s CORS when origins are allowed', () => {
    const [, url] = onlyOf(virginia, 'AWS::Lambda::Url');
    expect(url.Properties.Cors).toMatchObject({
      AllowOrigins: ['https://app.example.com'],
      AllowMethods: [...new Set(OPERATIONS.map(({ method }) => method))],
      ExposeHeaders: ['link'],
    });
    expect(onlyOf(ireland, 'AWS::Lambda::Url')[1].Properties.Cors).toBeUndefined();
  });
});

describe('the function and the stack behind the edge', () => {
  it('are told the function sits behind the edge; next links name the custom domain when there is one', () => {
    expect(functionEnv(ireland)).toMatchObject(functionEnvironment(EDGE_FUNCTION_SETTINGS));
    expect(functionEnv(ireland).PUBLIC_BASE_URL).toBeUndefined();
    expect(functionEnv(virginia)).toMatchObject({
      ...functionEnvironment(EDGE_FUNCTION_SETTINGS),
      PUBLIC_BASE_URL: 'https://plants.example.com',
    });
  });

  it('output the distribution as ApiUrl, where every CLI calls', () => {
    for (const s of both()) {
      expect(s.template.findOutputs('ApiUrl').ApiUrl?.Value).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution(s)[0], 'DomainName'] }, '/']],
      });
    }
  });

  it('judge the 5xx alarm and the dashboard on the function URL’s counts of the alias', () => {
    const [, alarm] = resources(ireland, 'AWS::CloudWatch::Alarm').find(([id]) =>
      id.startsWith('MonitoringServerErrorRate'),
    ) ?? [undefined, undefined];
    const metrics = (alarm?.Properties.Metrics ?? []) as Json[];
    const named = Object.fromEntries(metrics.filter((m) => m.MetricStat).map((m) => [m.Id, m.MetricStat.Metric]));
    const fn = { Ref: expect.stringMatching(/^ListPlantsFunction/) };
    const dimensions = [
      { Name: 'FunctionName', Value: fn },
      { Name: 'Resource', Value: { 'Fn::Join': ['', [fn, `:${LIVE_ALIAS}`]] } },
    ];
    expect(named).toEqual({
      errors: { Namespace: 'AWS/Lambda', MetricName: 'Url5xxCount', Dimensions: dimensions },
      requests: { Namespace: 'AWS/Lambda', MetricName: 'UrlRequestCount', Dimensions: dimensions },
    });
  });
});

describe('checks', () => {
  it('leave no cdk-nag finding unacknowledged', () => {
    for (const synthesized of both()) {
      expect(synthesized.nagViolations).toEqual([]);
    }
  });

  it('pass cfn-lint on the service and web ACL templates', async () => {
    const templates = [ireland.templatePath, ireland.beside.EdgeWaf?.templatePath ?? '', virginia.templatePath];
    await expect(cfnLint(templates)).resolves.toBeUndefined();
  });
});
