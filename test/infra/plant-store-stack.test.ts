// The synthesized template, checked resource by resource, then by cdk-nag and cfn-lint.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { OPERATIONS, tableCallsOf } from '../../handlers/lib/operations.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';
import { cfnLint } from '../helpers/cfn-lint.ts';
import { onlyOf, type Resource } from '../helpers/template.ts';

const EXTERNAL = { authIssuer: 'https://login.example.com/tenant/v2.0', authAudience: 'api://plant-store' };
/** Every option on at once, for the checks at the end. */
const EVERY_OPTION = {
  authRequiredScope: 'plants/read',
  accessTokenMinutes: '15',
  jwtAuthorizer: 'true',
  domainName: 'api.example.com',
  certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab',
  basePath: 'v1',
  corsOrigins: 'https://app.example.com',
  alarmEmail: 'oncall@example.com',
  alarmErrorRatePercent: '2',
  sourceMaps: 'true',
  requestLog: 'all',
  accessLog: 'full',
  accessLogClass: 'standard',
  tracing: 'true',
  systemLogLevel: 'info',
  deploymentStrategy: 'linear',
  provisionedConcurrency: '2',
  architecture: 'x86_64',
  memoryMb: '2048',
  groupCacheSeconds: '0',
  groupCacheMaxBytes: '1048576',
};

const CODEDEPLOY_ROLE_POLICY =
  'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]';

let prod: Synthesized;
let external: Synthesized;
let everything: Synthesized;

beforeAll(async () => {
  prod = await synth();
  external = await synth({
    ...EXTERNAL,
    dev: 'true',
    corsOrigins: 'https://app.example.com',
    maxRequestsPerSecond: '5',
  });
  everything = await synth(EVERY_OPTION);
});

describe('table', () => {
  it('is keyed by owner and plant id, on demand, with point-in-time recovery', () => {
    prod.template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'owner', KeyType: 'HASH' },
        { AttributeName: 'id', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'owner', AttributeType: 'S' },
        { AttributeName: 'id', AttributeType: 'S' },
      ]),
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('survives stack deletion by default, and goes with a dev stack', () => {
    expect(onlyOf(prod, 'AWS::DynamoDB::Table')).toMatchObject({
      DeletionPolicy: 'RetainExceptOnCreate',
      Properties: { DeletionProtectionEnabled: true },
    });
    expect(onlyOf(external, 'AWS::DynamoDB::Table')).toMatchObject({
      DeletionPolicy: 'Delete',
      Properties: { DeletionProtectionEnabled: false },
    });
  });
});

describe('function', () => {
  it('runs the bundle on Node.js 24, arm64, with explicit memory and timeout, JSON logs, Lambda platform records at WARN', () => {
    prod.template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: 1024,
      Timeout: 15,
      LoggingConfig: {
        LogFormat: 'JSON',
        SystemLogLevel: 'WARN',
        LogGroup: { Ref: Match.stringLikeRegexp('^FunctionLogs') },
      },
    });
    expect(onlyOf(everything, 'AWS::Lambda::Function').Properties.MemorySize).toBe(2048);
    expect(onlyOf(everything, 'AWS::Lambda::Function').Properties.LoggingConfig).toMatchObject({
      SystemLogLevel: 'INFO',
    });
  });

  it('runs on x86_64 when asked (-c architecture=x86_64: sam local on an x86_64 host)', () => {
    expect(onlyOf(everything, 'AWS::Lambda::Function').Properties.Architectures).toEqual(['x86_64']);
  });

  it('traces with X-Ray only when asked (-c tracing=true), and then loads the Tracer', () => {
    const fn = (s: Synthesized) => onlyOf(s, 'AWS::Lambda::Function').Properties;
    const variables = (s: Synthesized) => (fn(s).Environment as { Variables: Record<string, unknown> }).Variables;
    expect(fn(prod).TracingConfig).toBeUndefined();
    expect(variables(prod).POWERTOOLS_TRACE_ENABLED).toBe('false');
    expect(fn(everything).TracingConfig).toEqual({ Mode: 'Active' });
    expect(variables(everything).POWERTOOLS_TRACE_ENABLED).toBeUndefined();
  });

  it('logs to its own Standard log group (for EMF) and the API to an Infrequent Access one, both kept for a month', () => {
    const groups = (s: Synthesized) => Object.values(s.template.findResources('AWS::Logs::LogGroup')) as Resource[];
    expect(groups(prod)).toHaveLength(2);
    for (const group of groups(prod)) expect(group).toMatchObject({ Properties: { RetentionInDays: 30 } });
    const classes = (s: Synthesized) =>
      groups(s)
        .map((group) => group.Properties.LogGroupClass)
        .sort();
    expect(classes(prod)).toEqual(['INFREQUENT_ACCESS', 'STANDARD']);
    expect(classes(everything)).toEqual(['STANDARD', 'STANDARD']);
  });

  it('loads source maps only when asked (-c sourceMaps=true), since they cost every cold start', () => {
    const variables = (s: Synthesized) =>
      (onlyOf(s, 'AWS::Lambda::Function').Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables(prod).NODE_OPTIONS).toBeUndefined();
    expect(variables(everything).NODE_OPTIONS).toBe('--enable-source-maps');
  });

  it("hands -c groupCacheSeconds / groupCacheMaxBytes to the function, else leaves the function's defaults", () => {
    const variables = (s: Synthesized) =>
      (onlyOf(s, 'AWS::Lambda::Function').Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables(prod).GROUP_CACHE_TTL_SECONDS).toBeUndefined();
    expect(variables(everything)).toMatchObject({ GROUP_CACHE_TTL_SECONDS: '0', GROUP_CACHE_MAX_BYTES: '1048576' });
  });

  it('is pointed at the Cognito pool and app client by default', () => {
    const env = (onlyOf(prod, 'AWS::Lambda::Function').Properties.Environment as { Variables: object }).Variables;
    expect(env).toEqual({
      PLANTS_TABLE_NAME: { Ref: expect.stringMatching(/^PlantsTable/) },
      AUTH_ISSUER: { 'Fn::GetAtt': [expect.stringMatching(/^IdentityUserPool/), 'ProviderURL'] },
      AUTH_AUDIENCE: { Ref: expect.stringMatching(/^IdentityUserPoolAppClient/) },
      AUTH_TOKEN_USE: 'access',
      POWERTOOLS_SERVICE_NAME: 'plant-store',
      POWERTOOLS_METRICS_NAMESPACE: 'PlantStore',
      REQUEST_LOG: 'failures',
      POWERTOOLS_TRACE_ENABLED: 'false',
    });
  });

  it('is pointed at an external issuer, and no user pool exists, when one is given', () => {
    const env = (onlyOf(external, 'AWS::Lambda::Function').Properties.Environment as { Variables: object }).Variables;
    expect(env).toMatchObject({ AUTH_ISSUER: EXTERNAL.authIssuer, AUTH_AUDIENCE: EXTERNAL.authAudience });
    external.template.resourceCountIs('AWS::Cognito::UserPool', 0);
    external.template.resourceCountIs('AWS::Cognito::UserPoolClient', 0);
    expect(Object.keys(external.template.findOutputs('*')).sort()).toEqual([
      'AlarmNotifications',
      'ApiUrl',
      'DeploymentApplication',
      'DeploymentGroup',
      'FunctionName',
      'TableName',
    ]);
  });
});

describe('permissions', () => {
  it("allow the operations' table calls on the table and no other DynamoDB action anywhere", () => {
    const statements = Object.values(prod.template.findResources('AWS::IAM::Policy')).flatMap(
      (policy) => (policy as Resource).Properties.PolicyDocument as { Statement: { Action: unknown }[] },
    );
    const all = statements.flatMap((doc) => (doc as unknown as { Statement: object[] }).Statement) as {
      Action: string | string[];
      Resource: unknown;
    }[];
    const granted = tableCallsOf(OPERATIONS).map((call) => `dynamodb:${call}`);
    const dynamo = all.filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    // One statement on the table, its actions in whatever order CDK writes them.
    expect(dynamo.map(({ Action, ...rest }) => ({ ...rest, Action: [Action].flat().sort() }))).toEqual([
      { Action: [...granted].sort(), Effect: 'Allow', Resource: { 'Fn::GetAtt': [expect.any(String), 'Arn'] } },
    ]);
    expect(all.flatMap((s) => [s.Action].flat()).sort()).toEqual(
      [...granted, 'logs:CreateLogStream', 'logs:PutLogEvents'].sort(),
    );
  });

  it('allow writing X-Ray segments only with tracing on', () => {
    const actions = (s: Synthesized) =>
      JSON.stringify(Object.values(s.template.findResources('AWS::IAM::Policy')).map((p) => p.Properties));
    expect(actions(prod)).not.toContain('xray:');
    expect(actions(everything)).toContain('xray:PutTraceSegments');
  });

  it('attach no managed policies to the function role', () => {
    prod.template.hasResourceProperties('AWS::IAM::Role', { ManagedPolicyArns: Match.absent() });
  });
});

describe('outputs', () => {
  it('give the API URL, user pool, app client, table, function and CodeDeploy names', () => {
    expect(Object.keys(prod.template.findOutputs('*')).sort()).toEqual([
      'AlarmNotifications',
      'ApiUrl',
      'AppClientId',
      'DeploymentApplication',
      'DeploymentGroup',
      'FunctionName',
      'TableName',
      'UserPoolId',
    ]);
  });

  it('add the machine client, token endpoint, custom URL and DNS target when those options are on', () => {
    expect(Object.keys(everything.template.findOutputs('*')).sort()).toEqual([
      'AlarmNotifications',
      'ApiUrl',
      'AppClientId',
      'CustomDomainUrl',
      'DeploymentApplication',
      'DeploymentGroup',
      'DomainHostedZoneId',
      'DomainTarget',
      'FunctionName',
      'MachineClientId',
      'TableName',
      'TokenEndpoint',
      'UserPoolId',
    ]);
  });
});

describe('checks', () => {
  it('leaves no cdk-nag AwsSolutions finding unacknowledged, with every option on too', () => {
    for (const synthesized of [prod, external, everything]) {
      expect(synthesized.nagViolations).toEqual([]);
    }
  });

  const acknowledged = (synthesized: Synthesized) => synthesized.acknowledged;
  const ids = (synthesized: Synthesized) =>
    acknowledged(synthesized)
      .map(([id]) => id.replace(/^annotation::/i, ''))
      .sort();

  it('acknowledges only these findings, each with a written reason', () => {
    expect(ids(prod)).toEqual(['AwsSolutions-APIG4', 'AwsSolutions-COG2', 'AwsSolutions-COG8', CODEDEPLOY_ROLE_POLICY]);
    for (const [, reason] of acknowledged(prod)) expect(reason.length).toBeGreaterThan(60);
  });

  it("acknowledges X-Ray's wildcard resource with tracing on, and no missing authorizer (APIG4) with the JWT authorizer", () => {
    expect(ids(everything)).toEqual([
      'AwsSolutions-COG2',
      'AwsSolutions-COG8',
      CODEDEPLOY_ROLE_POLICY,
      'AwsSolutions-IAM5[Resource::*]',
      'AwsSolutions-SNS2',
    ]);
  });

  it('passes cfn-lint, with every option on too', async () => {
    await expect(cfnLint([prod.templatePath, external.templatePath, everything.templatePath])).resolves.toBeUndefined();
  });
});
