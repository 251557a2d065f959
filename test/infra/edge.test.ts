// The opt-in edge as synthesized (-c edge=true): the WAF web ACL in us-east-1 (its own stack when the
// service is elsewhere), its rules, keys and limits; the distribution in front of the API; and the
// wiring that makes the direct path refuse (the secret header CloudFront adds, the function's
// variable). Without the flag none of it exists. cdk-nag and cfn-lint pass on every template.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EDGE_ORIGIN_HEADER } from '../../handlers/lib/environment.ts';
import { type Synthesized, synth, synthLive } from '../helpers/cdk.ts';
import { cfnLint } from '../helpers/cfn-lint.ts';

const ACCOUNT = '123456789012';
/** CloudFront's managed policies, by the ids AWS documents. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let plain: Synthesized;
let ireland: Synthesized;
let virginia: Synthesized;

beforeAll(async () => {
  plain = await synth();
  ireland = await synth({ edge: 'true' }, { env: { account: ACCOUNT, region: 'eu-west-1' } });
  virginia = await synth(
    {
      edge: 'true',
      edgeTokenLimit: '120',
      edgeIpLimit: '900',
      edgeWindowSeconds: '300',
      corsOrigins: 'https://app.example.com',
      edgeSecretGeneration: '2',
      alarmEmail: 'oncall@example.com',
    },
    { env: { account: ACCOUNT, region: 'us-east-1' } },
  );
});
afterAll(() => {
  for (const synthesized of [plain, ireland, virginia]) synthesized?.cleanup();
});

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON, read by path
type Json = any;
type Resource = { Properties: Record<string, Json> };
const onlyOf = (template: Synthesized['template'], type: string): Resource => {
  const found = Object.values(template.findResources(type)) as Resource[];
  expect(found).toHaveLength(1);
  return found[0] as Resource;
};
/** The web ACL in the us-east-1 stack of its own (none there: the length check fails). */
const separateWebAcl = () => onlyOf(ireland.waf?.template ?? ireland.template, 'AWS::WAFv2::WebACL');
const rule = (webAcl: Resource, name: string) =>
  (webAcl.Properties.Rules as { Name: string; [key: string]: Json }[]).find((each) => each.Name === name);
const secretIds = (s: Synthesized) => Object.keys(s.template.findResources('AWS::SecretsManager::Secret'));
/** The dynamic reference to the secret whose logical id starts with `prefix` (generation 1's by default). */
const secretRef = (s: Synthesized, prefix = 'EdgeOriginSecret') => ({
  'Fn::Join': [
    '',
    [
      '{{resolve:secretsmanager:',
      { Ref: secretIds(s).find((id) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id)) },
      ':SecretString:::}}',
    ],
  ],
});
const functionEnv = (s: Synthesized): Json => {
  const functions = Object.entries(s.template.findResources('AWS::Lambda::Function'));
  const [, fn] = functions.find(([id]) => id.startsWith('ListPlantsFunction')) ?? [];
  return (fn as Resource | undefined)?.Properties.Environment.Variables;
};

describe('without -c edge=true', () => {
  it('adds no distribution, web ACL, secret or origin check, and keeps a single environment-agnostic stack', async () => {
    for (const type of ['AWS::CloudFront::Distribution', 'AWS::WAFv2::WebACL', 'AWS::SecretsManager::Secret']) {
      plain.template.resourceCountIs(type, 0);
    }
    expect(plain.waf).toBeUndefined();
    expect(functionEnv(plain).EDGE_ORIGIN_SECRET).toBeUndefined();
    const live = await synthLive();
    expect(live.stack.region).toMatch(/^\$\{Token/);
    live.cleanup();
  });
});

describe('-c edge=true without a Region', () => {
  it('is refused at synth, naming what to set: a cross-region reference is resolved then', async () => {
    await expect(synth({ edge: 'true' })).rejects.toThrow(
      'edge=true needs the target Region: set AWS_REGION or use a profile that names one',
    );
  });
});

describe('the web ACL', () => {
  it('lives in us-east-1 with CloudFront scope: in a stack of its own when the service is in another Region', () => {
    expect(ireland.waf).toBeDefined();
    ireland.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(separateWebAcl().Properties).toMatchObject({
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
    });
    expect(virginia.waf).toBeUndefined();
    expect(onlyOf(virginia.template, 'AWS::WAFv2::WebACL').Properties.Scope).toBe('CLOUDFRONT');
  });

  it('limits each bearer token, keyed on the Authorization header with case and spaces folded', () => {
    const webAcl = separateWebAcl();
    expect(rule(webAcl, 'RatePerBearerToken')?.Statement.RateBasedStatement).toEqual({
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
    const webAcl = separateWebAcl();
    expect(rule(webAcl, 'RatePerClientIp')?.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: 3000,
      EvaluationWindowSec: 60,
    });
  });

  it('takes the limits and window from context', () => {
    const webAcl = onlyOf(virginia.template, 'AWS::WAFv2::WebACL');
    expect(rule(webAcl, 'RatePerBearerToken')?.Statement.RateBasedStatement).toMatchObject({
      Limit: 120,
      EvaluationWindowSec: 300,
    });
    expect(rule(webAcl, 'RatePerClientIp')?.Statement.RateBasedStatement).toMatchObject({
      Limit: 900,
      EvaluationWindowSec: 300,
    });
  });

  const noStore = [{ Name: 'cache-control', Value: 'no-store' }];

  it('answers a limited caller 429 with the API’s Error body, which no cache keeps', () => {
    const webAcl = separateWebAcl();
    for (const name of ['RatePerBearerToken', 'RatePerClientIp']) {
      expect(rule(webAcl, name)?.Action).toEqual({
        Block: {
          CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'TooManyRequests', ResponseHeaders: noStore },
        },
      });
    }
    const body = webAcl.Properties.CustomResponseBodies.TooManyRequests;
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({ error: 429, message: expect.any(String) });
  });

  it('runs AWS’s free managed rule groups for common attacks, counting, so that its own rule blocks what they match', () => {
    const webAcl = separateWebAcl();
    const managed = (webAcl.Properties.Rules as Json[]).filter((each) => each.Statement.ManagedRuleGroupStatement);
    expect(managed.map((each) => each.Statement.ManagedRuleGroupStatement)).toEqual([
      { VendorName: 'AWS', Name: 'AWSManagedRulesAmazonIpReputationList' },
      { VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' },
      { VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' },
    ]);
    for (const each of managed) expect(each.OverrideAction).toEqual({ Count: {} });
  });

  it('blocks what the managed rules match with a 403 in the API’s Error body, after them and before the limits', () => {
    const webAcl = separateWebAcl();
    const blocking = rule(webAcl, 'BlockManagedMatches');
    expect(blocking?.Action).toEqual({
      Block: { CustomResponse: { ResponseCode: 403, CustomResponseBodyKey: 'Forbidden', ResponseHeaders: noStore } },
    });
    const labels = blocking?.Statement.OrStatement.Statements.map((each: Json) => each.LabelMatchStatement);
    // Every blocking rule of the three groups; AWSManagedIPDDoSList, which only counts, is not among them.
    expect(labels).toEqual([
      { Scope: 'LABEL', Key: 'awswaf:managed:aws:amazon-ip-list:AWSManagedIPReputationList' },
      { Scope: 'LABEL', Key: 'awswaf:managed:aws:amazon-ip-list:AWSManagedReconnaissanceList' },
      { Scope: 'NAMESPACE', Key: 'awswaf:managed:aws:core-rule-set:' },
      { Scope: 'NAMESPACE', Key: 'awswaf:managed:aws:known-bad-inputs:' },
    ]);
    const priority = (name: string) => rule(webAcl, name)?.Priority;
    expect(priority('BlockManagedMatches')).toBeGreaterThan(priority('AWSManagedRulesKnownBadInputsRuleSet'));
    expect(priority('BlockManagedMatches')).toBeLessThan(priority('RatePerClientIp'));
    const body = webAcl.Properties.CustomResponseBodies.Forbidden;
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({ error: 403, message: expect.any(String) });
  });
});

describe('the distribution', () => {
  it('is guarded by the web ACL: across Regions through the us-east-1 stack’s output, else directly', () => {
    const config = onlyOf(ireland.template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.WebACLId).toEqual({
      'Fn::GetStackOutput': expect.objectContaining({ StackName: 'PlantStoreEdgeWaf', Region: 'us-east-1' }),
    });
    const local = onlyOf(virginia.template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(local.WebACLId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^EdgeWafWebAcl/), 'Arn'] });
  });

  it('caches nothing, forwards Authorization and the query but not Host, and serves HTTPS only', () => {
    const behavior = onlyOf(ireland.template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig
      .DefaultCacheBehavior;
    expect(behavior).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD'],
    });
    const cors = onlyOf(virginia.template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig
      .DefaultCacheBehavior;
    expect(cors.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('sends the secret origin header to the execute-api host over TLS 1.2, the value resolved from Secrets Manager at deploy', () => {
    const [origin] = onlyOf(ireland.template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig.Origins;
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.eu-west-1.');
    expect(origin.OriginCustomHeaders).toEqual([{ HeaderName: EDGE_ORIGIN_HEADER, HeaderValue: secretRef(ireland) }]);
    expect(
      Object.values(ireland.template.findResources('AWS::SecretsManager::Secret'))[0]?.Properties.GenerateSecretString,
    ).toMatchObject({
      PasswordLength: 32,
      ExcludePunctuation: true,
    });
  });
});

describe('the function behind the edge', () => {
  it('requires that same secret, so a request sent straight to the API is refused', () => {
    expect(functionEnv(ireland).EDGE_ORIGIN_SECRET).toEqual(secretRef(ireland));
  });

  it('links next pages to the distribution, which the stack outputs as EdgeUrl', () => {
    const domain = { 'Fn::GetAtt': [expect.stringMatching(/^EdgeDistribution/), 'DomainName'] };
    expect(functionEnv(ireland).PUBLIC_BASE_URL).toEqual({ 'Fn::Join': ['', ['https://', domain]] });
    expect(ireland.template.findOutputs('EdgeUrl').EdgeUrl?.Value).toEqual({
      'Fn::Join': ['', ['https://', domain, '/']],
    });
  });
});

describe('the canary behind the edge', () => {
  const alarms = (s: Synthesized) => Object.entries(s.template.findResources('AWS::CloudWatch::Alarm'));
  const groupAlarms = (s: Synthesized) =>
    onlyOf(s.template, 'AWS::CodeDeploy::DeploymentGroup').Properties.AlarmConfiguration.Alarms.map(
      (each: Json) => each.Name.Ref,
    );

  const metricOf = (metrics: Json[], id: string) => metrics.find((m) => m.Id === id)?.MetricStat.Metric;
  const refusals = (version?: Json) => ({
    Namespace: 'PlantStore',
    MetricName: 'EdgeRefusals',
    Dimensions: [{ Name: 'service', Value: 'plant-store' }, ...(version ? [{ Name: 'version', Value: version }] : [])],
  });
  const invocations = { Namespace: 'AWS/Lambda', MetricName: 'Invocations', Dimensions: [functionName()] };
  function functionName() {
    return { Name: 'FunctionName', Value: { Ref: expect.stringMatching(/^ListPlantsFunction/) } };
  }

  it('rolls back a new version that refuses 40 points more of its requests than all versions do', () => {
    const [id, alarm] = alarms(ireland).find(([each]) => each.startsWith('DeliveryNewVersionEdgeRefusalRate')) ?? [];
    expect(groupAlarms(ireland)).toContain(id);
    const properties = (alarm as Resource).Properties;
    expect(properties).toMatchObject({ Threshold: 40, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    const metrics = properties.Metrics as Json[];
    // Calls around the edge (anyone can flood ApiUrl) raise both shares alike and cancel out.
    expect(metrics.find((m) => m.Expression)?.Expression).toBe(
      'IF(requests >= 10, 100 * (FILL(errors, 0) / requests - FILL(allErrors, 0) / allRequests), 0)',
    );
    const version = { 'Fn::GetAtt': [expect.stringMatching(/^ListPlantsFunctionCurrentVersion/), 'Version'] };
    expect(metricOf(metrics, 'errors')).toEqual(refusals(version));
    expect(metricOf(metrics, 'allErrors')).toEqual(refusals());
    expect(metricOf(metrics, 'allRequests')).toEqual(invocations);
    expect(metricOf(metrics, 'requests').Dimensions).toContainEqual({ Name: 'ExecutedVersion', Value: version });
  });

  it('mails, and never rolls back on, most requests refused across all versions (a secret neither accepts)', () => {
    const [id, alarm] = alarms(virginia).find(([each]) => each.startsWith('MonitoringEdgeRefusalRate')) ?? [];
    expect(groupAlarms(virginia)).not.toContain(id);
    const properties = (alarm as Resource).Properties;
    expect(properties).toMatchObject({ Threshold: 50, EvaluationPeriods: 5, DatapointsToAlarm: 3 });
    expect(properties.AlarmActions).toEqual([{ Ref: expect.stringMatching(/^MonitoringAlarmTopic/) }]);
    const metrics = properties.Metrics as Json[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe(
      'IF(requests >= 10, 100 * FILL(refusals, 0) / requests, 0)',
    );
    expect(metricOf(metrics, 'refusals')).toEqual(refusals());
    expect(metricOf(metrics, 'requests')).toEqual(invocations);
  });

  it('has no such alarm without the edge', () => {
    expect(alarms(plain).map(([id]) => id)).not.toContainEqual(expect.stringMatching(/EdgeRefusal/));
  });
});

describe('rotating the origin secret (-c edgeSecretGeneration=N+1)', () => {
  const resource = (s: Synthesized, id: string) => s.template.toJSON().Resources[id];
  const secret2 = () => secretIds(ireland).find((id) => id.startsWith('EdgeOriginSecret2')) as string;

  it('makes each generation a secret of its own, one ahead: the distribution sends N, the function accepts N and N+1', () => {
    expect(secretIds(ireland).sort()).toEqual([
      expect.stringMatching(/^EdgeOriginSecret2[0-9A-F]{8}$/),
      expect.stringMatching(/^EdgeOriginSecret[0-9A-F]{8}$/),
    ]);
    expect(functionEnv(ireland).EDGE_ORIGIN_NEXT_SECRET).toEqual(secretRef(ireland, 'EdgeOriginSecret2'));
    const [origin] = onlyOf(virginia.template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig.Origins;
    expect(origin.OriginCustomHeaders).toEqual([
      { HeaderName: EDGE_ORIGIN_HEADER, HeaderValue: secretRef(virginia, 'EdgeOriginSecret2') },
    ]);
    expect(functionEnv(virginia).EDGE_ORIGIN_SECRET).toEqual(secretRef(virginia, 'EdgeOriginSecret2'));
    expect(functionEnv(virginia).EDGE_ORIGIN_NEXT_SECRET).toEqual(secretRef(virginia, 'EdgeOriginSecret3'));
  });

  it('updates the distribution before the function, also when -c publicBaseUrl names the links', async () => {
    const proxied = await synth(
      { edge: 'true', publicBaseUrl: 'https://plants.example.com' },
      { env: { account: ACCOUNT, region: 'us-east-1' } },
    );
    try {
      for (const s of [ireland, proxied]) {
        const [distributionId] = Object.keys(s.template.findResources('AWS::CloudFront::Distribution'));
        const functions = Object.entries(s.template.findResources('AWS::Lambda::Function'));
        const [, fn] = functions.find(([id]) => id.startsWith('ListPlantsFunction')) ?? [];
        expect(distributionId).toBeDefined();
        expect((fn as { DependsOn?: string[] } | undefined)?.DependsOn).toContain(distributionId);
      }
      expect(functionEnv(proxied).PUBLIC_BASE_URL).toBe('https://plants.example.com');
    } finally {
      proxied.cleanup();
    }
  });

  it('sends after a rotation the very secret the version deployed before it accepts: same resource, same value', () => {
    expect(resource(virginia, secret2())).toEqual(resource(ireland, secret2()));
  });

  it('keeps generation 1 the secret the edge first shipped with, so deploying this changes no header', () => {
    const first = secretIds(ireland).find((id) => /^EdgeOriginSecret[0-9A-F]{8}$/.test(id)) as string;
    expect(resource(ireland, first).Properties).toEqual({
      Description: `The header ${EDGE_ORIGIN_HEADER} CloudFront adds to requests it forwards to the plant store API`,
      GenerateSecretString: { PasswordLength: 32, ExcludePunctuation: true },
    });
  });
});

describe('checks', () => {
  it('leave no cdk-nag finding unacknowledged', () => {
    for (const synthesized of [ireland, virginia]) {
      expect(synthesized.nagViolations).toEqual([]);
    }
  });

  it('pass cfn-lint on the service and web ACL templates', async () => {
    const templates = [ireland.templatePath, ireland.waf?.templatePath ?? '', virginia.templatePath];
    await expect(cfnLint(templates)).resolves.toBeUndefined();
  });
});
