// Safe delivery as synthesized: the `live` alias the API invokes, a version per change, the
// CodeDeploy group for each strategy, the alarms that roll a shift back, and provisioned concurrency.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { OPERATIONS } from '../../handlers/lib/operations.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';

const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';

let prod: Synthesized;
let dev: Synthesized;
let linear: Synthesized;
let everyRequest: Synthesized;
let devCanary: Synthesized;
let guarded: Synthesized;

beforeAll(async () => {
  prod = await synth();
  dev = await synth({ dev: 'true' });
  linear = await synth({ deploymentStrategy: 'linear', alarmP99Ms: '1500', alarmMinRequests: '20' });
  everyRequest = await synth({ requestLog: 'all' });
  devCanary = await synth({ dev: 'true', deploymentStrategy: 'canary', provisionedConcurrency: '3' });
  guarded = await synth({
    jwtAuthorizer: 'true',
    domainName: 'api.example.com',
    certificateArn: CERTIFICATE,
    samLocal: 'true',
  });
});

type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[]; UpdatePolicy?: unknown };
type Group = {
  DeploymentConfigName: string;
  AlarmConfiguration: { Enabled: boolean; Alarms?: { Name: { Ref: string } }[] };
  AutoRollbackConfiguration: unknown;
};
const resources = (s: Synthesized) => s.template.toJSON().Resources as Record<string, Resource>;
const onlyId = (s: Synthesized, type: string): string => {
  const ids = Object.keys(s.template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
};
const only = (s: Synthesized, type: string): Resource => resources(s)[onlyId(s, type)] as Resource;
const group = (s: Synthesized) => only(s, 'AWS::CodeDeploy::DeploymentGroup').Properties as unknown as Group;
const groupAlarmIds = (s: Synthesized): string[] =>
  (group(s).AlarmConfiguration.Alarms ?? []).map((alarm) => alarm.Name.Ref);
const alarmIds = (s: Synthesized) => Object.keys(s.template.findResources('AWS::CloudWatch::Alarm'));
/** The version number CloudFormation gives the version this synth publishes. */
const newVersion = (s: Synthesized) => ({ 'Fn::GetAtt': [onlyId(s, 'AWS::Lambda::Version'), 'Version'] });

/** Logical ids a resource waits for: DependsOn, and every Ref or GetAtt anywhere in it. */
function directDependencies(resource: Resource): string[] {
  const found = new Set(resource.DependsOn ?? []);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Ref' && typeof value === 'string') found.add(value);
        else if (key === 'Fn::GetAtt' && Array.isArray(value)) found.add(value[0]);
        else walk(value);
      }
    }
  };
  walk(resource.Properties);
  walk(resource.UpdatePolicy);
  return [...found];
}
function waitsFor(s: Synthesized, from: string, to: string, seen = new Set<string>()): boolean {
  const resource = resources(s)[from];
  if (!resource || seen.has(from)) return false;
  seen.add(from);
  return directDependencies(resource).some((next) => next === to || waitsFor(s, next, to, seen));
}

describe('the live alias', () => {
  it('is what the API integration invokes and what API Gateway may invoke, with every API option too', () => {
    for (const s of [prod, guarded]) {
      const aliasId = onlyId(s, 'AWS::Lambda::Alias');
      expect(only(s, 'AWS::Lambda::Alias').Properties).toMatchObject({
        Name: 'live',
        FunctionName: { Ref: onlyId(s, 'AWS::Lambda::Function') },
        FunctionVersion: newVersion(s),
      });
      expect(only(s, 'AWS::ApiGatewayV2::Integration').Properties.IntegrationUri).toEqual({ Ref: aliasId });
      // One permission per route of the operation table, each for the alias.
      const permissions = Object.values(s.template.findResources('AWS::Lambda::Permission'));
      expect(permissions).toHaveLength(OPERATIONS.length);
      for (const { Properties } of permissions) {
        expect(Properties).toMatchObject({ FunctionName: { Ref: aliasId }, Principal: 'apigateway.amazonaws.com' });
      }
    }
  });

  it('is referenced the way sam local follows to the function (Ref of an alias whose FunctionName is a Ref)', () => {
    // samcli resolves Ref of an AWS::Lambda::Alias through its FunctionName's Ref; a joined ARN it could not route.
    const integration = only(guarded, 'AWS::ApiGatewayV2::Integration').Properties;
    const alias = resources(guarded)[(integration.IntegrationUri as { Ref: string }).Ref] as Resource;
    expect(alias.Type).toBe('AWS::Lambda::Alias');
    expect(alias.Properties.FunctionName).toEqual({ Ref: onlyId(guarded, 'AWS::Lambda::Function') });
  });

  it('moves to a new version when the configuration changes, and not when only an alarm threshold does', () => {
    expect(onlyId(everyRequest, 'AWS::Lambda::Version')).not.toBe(onlyId(prod, 'AWS::Lambda::Version'));
    expect(onlyId(linear, 'AWS::Lambda::Version')).toBe(onlyId(prod, 'AWS::Lambda::Version'));
  });

  it('has provisioned concurrency only when asked for', () => {
    for (const s of [prod, dev, linear]) {
      expect(only(s, 'AWS::Lambda::Alias').Properties.ProvisionedConcurrencyConfig).toBeUndefined();
    }
    expect(only(devCanary, 'AWS::Lambda::Alias').Properties.ProvisionedConcurrencyConfig).toEqual({
      ProvisionedConcurrentExecutions: 3,
    });
  });
});

describe('the deployment group', () => {
  it.each([
    { stack: 'a retained stack', synthesized: () => prod, config: 'CodeDeployDefault.LambdaCanary10Percent5Minutes' },
    { stack: 'linear', synthesized: () => linear, config: 'CodeDeployDefault.LambdaLinear10PercentEvery2Minutes' },
    { stack: 'a dev stack', synthesized: () => dev, config: 'CodeDeployDefault.LambdaAllAtOnce' },
    {
      stack: 'a dev stack asked for a canary',
      synthesized: () => devCanary,
      config: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
    },
  ])('shifts $stack with $config', ({ synthesized, config }) => {
    expect(group(synthesized())).toMatchObject({
      DeploymentConfigName: config,
      DeploymentStyle: { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' },
    });
  });

  it('moves the alias when CloudFormation updates it', () => {
    expect(only(prod, 'AWS::Lambda::Alias').UpdatePolicy).toEqual({
      CodeDeployLambdaAliasUpdate: {
        ApplicationName: { Ref: onlyId(prod, 'AWS::CodeDeploy::Application') },
        DeploymentGroupName: { Ref: onlyId(prod, 'AWS::CodeDeploy::DeploymentGroup') },
      },
    });
  });

  it('rolls a gradual shift back when it fails, is stopped, or any alarm of the stack but HotPartition fires', () => {
    for (const s of [prod, linear, devCanary]) {
      expect(group(s).AutoRollbackConfiguration).toEqual({
        Enabled: true,
        Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_REQUEST', 'DEPLOYMENT_STOP_ON_ALARM'],
      });
      expect(group(s).AlarmConfiguration.Enabled).toBe(true);
      // A hot group is traffic, not the new version: rolling back would not cool it (monitoring.ts).
      const gating = alarmIds(s).filter((id) => !id.startsWith('MonitoringHotPartition'));
      expect(groupAlarmIds(s).sort()).toEqual(gating.sort());
      // CodeDeploy's limit per deployment group.
      expect(groupAlarmIds(s).length).toBeLessThanOrEqual(10);
    }
  });

  it('watches no alarm all at once (nothing to watch, and a fix must get through while one fires)', () => {
    expect(group(dev).AlarmConfiguration).toEqual({ Enabled: false });
    expect(group(dev).AutoRollbackConfiguration).toEqual({
      Enabled: true,
      Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_REQUEST'],
    });
    expect(alarmIds(dev).filter((id) => id.startsWith('Delivery'))).toEqual([]);
  });
});

describe('the new-version alarms', () => {
  const alarmId = (s: Synthesized, name: string) =>
    alarmIds(s).find((id) => id.startsWith(`Delivery${name}`)) as string;
  const alarm = (s: Synthesized, name: string) => resources(s)[alarmId(s, name)] as Resource;
  const lambdaDimensions = (s: Synthesized) => [
    { Name: 'ExecutedVersion', Value: newVersion(s) },
    { Name: 'FunctionName', Value: { Ref: onlyId(s, 'AWS::Lambda::Function') } },
    { Name: 'Resource', Value: { 'Fn::Join': ['', [{ Ref: onlyId(s, 'AWS::Lambda::Function') }, ':live']] } },
  ];

  it("stop the canary on the new version's crashes and p99, dimensioned on its version number alone", () => {
    expect(groupAlarmIds(prod)).toEqual(
      expect.arrayContaining([alarmId(prod, 'NewVersionErrors'), alarmId(prod, 'NewVersionP99Duration')]),
    );
    expect(alarm(prod, 'NewVersionErrors').Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Statistic: 'Sum',
      Threshold: 0,
      Dimensions: lambdaDimensions(prod),
    });
    expect(alarm(linear, 'NewVersionP99Duration').Properties).toMatchObject({
      MetricName: 'Duration',
      ExtendedStatistic: 'p99',
      Threshold: 1500,
      Dimensions: lambdaDimensions(linear),
    });
  });

  it("stop the canary on the new version's 5xx share: its ServerErrors over its invocations", () => {
    const properties = alarm(linear, 'NewVersionServerErrorRate').Properties;
    expect(groupAlarmIds(linear)).toContain(alarmId(linear, 'NewVersionServerErrorRate'));
    const metrics = properties.Metrics as { Id: string; Expression?: string; MetricStat?: { Metric: unknown } }[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe(
      'IF(requests >= 20, 100 * FILL(errors, 0) / requests, 0)',
    );
    expect(metrics.find((m) => m.Id === 'errors')?.MetricStat).toEqual({
      Metric: {
        Namespace: 'PlantStore',
        MetricName: 'ServerErrors',
        Dimensions: [
          { Name: 'service', Value: 'plant-store' },
          { Name: 'version', Value: newVersion(linear) },
        ],
      },
      Period: 60,
      Stat: 'Sum',
    });
    expect(metrics.find((m) => m.Id === 'requests')?.MetricStat?.Metric).toEqual({
      Namespace: 'AWS/Lambda',
      MetricName: 'Invocations',
      Dimensions: lambdaDimensions(linear),
    });
  });

  it('can fire within the 5-minute canary: 2 bad minutes out of 3, and no traffic is healthy', () => {
    for (const name of ['NewVersionServerErrorRate', 'NewVersionErrors', 'NewVersionP99Duration']) {
      expect(alarm(prod, name).Properties).toMatchObject({
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('are updated to the new version before the alias update starts the shift', () => {
    const aliasId = onlyId(prod, 'AWS::Lambda::Alias');
    const groupId = onlyId(prod, 'AWS::CodeDeploy::DeploymentGroup');
    expect(only(prod, 'AWS::Lambda::Alias').DependsOn).toContain(groupId);
    for (const name of ['NewVersionServerErrorRate', 'NewVersionErrors', 'NewVersionP99Duration']) {
      expect(waitsFor(prod, alarmId(prod, name), onlyId(prod, 'AWS::Lambda::Version'))).toBe(true);
      expect(waitsFor(prod, aliasId, alarmId(prod, name))).toBe(true);
    }
  });
});
