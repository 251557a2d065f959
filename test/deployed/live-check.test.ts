// The post-deploy check against moto standing in for the account: the synthesized template's
// resources made there with the template's own values, every claim read back and matched; a live
// value changed behind the template's back is reported, naming it. Moto does not answer the table's
// maximum on-demand throughput (DescribeTable returns none): that one finding is reported as a
// difference here, and only a real account can show it matching.

import { ApiGatewayV2Client, CreateApiCommand, CreateStageCommand } from '@aws-sdk/client-apigatewayv2';
import { BudgetsClient, CreateBudgetCommand } from '@aws-sdk/client-budgets';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient, PutMetricAlarmCommand } from '@aws-sdk/client-cloudwatch';
import { CodeDeployClient, CreateApplicationCommand, CreateDeploymentGroupCommand } from '@aws-sdk/client-codedeploy';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  CreateAliasCommand,
  CreateFunctionCommand,
  CreateFunctionUrlConfigCommand,
  LambdaClient,
  PutFunctionConcurrencyCommand,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { checkClaim, type Finding, type LiveClients } from '../../deployed/live-check.ts';
import { type Claim, claimsOf, type DeployedTemplate } from '../../deployed/live-claims.ts';
import { synth } from '../helpers/cdk.ts';
import { type MotoServer, startMotoServer } from '../helpers/moto.ts';

const REGION = 'eu-west-1';
const ACCOUNT = '123456789012';
const STACK = 'PlantStore-dev';
const context = { env: 'dev', reserveConcurrency: 'true', alarmEmail: 'oncall@example.com', monthlyBudgetUsd: '50' };
const synthesized = await synth(context);
const template = synthesized.template.toJSON() as DeployedTemplate;
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties, handed to moto as they are
const ofTemplate = (type: string, from = template): [string, Record<string, any>][] =>
  Object.entries(from.Resources)
    .filter(([, resource]) => resource.Type === type)
    .map(([id, resource]) => [id, resource.Properties ?? {}]);

let moto: MotoServer;
let clients: LiveClients;
/** Logical id → physical id, as ListStackResources would give them. */
let physicalIds: Map<string, string>;
const ROLE = `${STACK}-Role-AbC123`;
// The smallest zip: an end-of-central-directory record alone.
const EMPTY_ZIP = Buffer.concat([Buffer.from('PK\x05\x06'), Buffer.alloc(18)]);

beforeAll(async () => {
  moto = await startMotoServer();
  const config = {
    endpoint: moto.endpoint,
    region: REGION,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  };
  clients = {
    apigateway: new ApiGatewayV2Client(config),
    lambda: new LambdaClient(config),
    dynamodb: new DynamoDBClient(config),
    cloudwatch: new CloudWatchClient(config),
    codedeploy: new CodeDeployClient(config),
    budgets: new BudgetsClient({ ...config, region: 'us-east-1' }),
    accountId: ACCOUNT,
    probe: async () => 403,
  };
  await roleOnMoto(config);
  physicalIds = await deployOnMoto(template, 'AbC123');
});
afterAll(async () => {
  for (const client of Object.values(clients ?? {})) if (typeof client === 'object') client.destroy();
  await moto?.stop();
});

// Moto's Lambda takes only a role its IAM holds: made through moto's CloudFormation (no IAM client here).
async function roleOnMoto(config: object) {
  const cloudformation = new CloudFormationClient(config);
  const trust = {
    Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
  };
  await cloudformation.send(
    new CreateStackCommand({
      StackName: `${STACK}-roles`,
      TemplateBody: JSON.stringify({
        Resources: {
          Role: { Type: 'AWS::IAM::Role', Properties: { RoleName: ROLE, AssumeRolePolicyDocument: trust } },
        },
      }),
    }),
  );
  cloudformation.destroy();
}

/** Each resource a claim reads, made on moto from `from`'s own properties: their physical ids. */
async function deployOnMoto(from: DeployedTemplate, suffix: string): Promise<Map<string, string>> {
  const physicalIds = new Map<string, string>();
  const nameOf = (id: string) => `${STACK}-${id}-${suffix}`;
  const ofType = (type: string) => ofTemplate(type, from);
  for (const [id] of ofType('AWS::ApiGatewayV2::Api')) {
    const { ApiId } = await clients.apigateway.send(new CreateApiCommand({ Name: STACK, ProtocolType: 'HTTP' }));
    physicalIds.set(id, ApiId ?? '');
  }
  for (const [id, p] of ofType('AWS::ApiGatewayV2::Stage')) {
    const ApiId = physicalIds.get(p.ApiId.Ref) ?? '';
    await clients.apigateway.send(
      new CreateStageCommand({ ApiId, StageName: p.StageName, DefaultRouteSettings: p.DefaultRouteSettings }),
    );
    physicalIds.set(id, p.StageName);
  }
  for (const [id, p] of ofType('AWS::Lambda::Function')) {
    const FunctionName = nameOf(id);
    await clients.lambda.send(
      new CreateFunctionCommand({
        FunctionName,
        Runtime: p.Runtime,
        Handler: p.Handler,
        Role: `arn:aws:iam::${ACCOUNT}:role/${ROLE}`,
        Code: { ZipFile: EMPTY_ZIP },
      }),
    );
    if (p.ReservedConcurrentExecutions !== undefined) {
      await clients.lambda.send(
        new PutFunctionConcurrencyCommand({
          FunctionName,
          ReservedConcurrentExecutions: p.ReservedConcurrentExecutions,
        }),
      );
    }
    physicalIds.set(id, FunctionName);
  }
  for (const [id, p] of ofType('AWS::DynamoDB::Table')) {
    const TableName = nameOf(id);
    const { AttributeDefinitions, KeySchema, BillingMode, OnDemandThroughput } = p;
    await clients.dynamodb.send(
      new CreateTableCommand({ TableName, AttributeDefinitions, KeySchema, BillingMode, OnDemandThroughput }),
    );
    physicalIds.set(id, TableName);
  }
  for (const [id, p] of ofType('AWS::CloudWatch::Alarm')) {
    await putAlarm(nameOf(id), p);
    physicalIds.set(id, nameOf(id));
  }
  for (const [id, p] of ofType('AWS::CodeDeploy::Application')) {
    await clients.codedeploy.send(
      new CreateApplicationCommand({ applicationName: nameOf(id), computePlatform: p.ComputePlatform }),
    );
    physicalIds.set(id, nameOf(id));
  }
  for (const [id, p] of ofType('AWS::CodeDeploy::DeploymentGroup')) {
    await clients.codedeploy.send(
      new CreateDeploymentGroupCommand({
        applicationName: physicalIds.get(p.ApplicationName.Ref),
        deploymentGroupName: nameOf(id),
        serviceRoleArn: `arn:aws:iam::${ACCOUNT}:role/${ROLE}`,
        deploymentConfigName: p.DeploymentConfigName,
        deploymentStyle: { deploymentOption: 'WITH_TRAFFIC_CONTROL', deploymentType: 'BLUE_GREEN' },
        alarmConfiguration: {
          enabled: p.AlarmConfiguration.Enabled,
          alarms: p.AlarmConfiguration.Alarms.map(({ Name }: { Name: { Ref: string } }) => ({
            name: physicalIds.get(Name.Ref),
          })),
        },
        autoRollbackConfiguration: { enabled: true, events: p.AutoRollbackConfiguration.Events },
      }),
    );
    physicalIds.set(id, nameOf(id));
  }
  for (const [id, p] of ofType('AWS::Budgets::Budget')) {
    const { BudgetLimit, TimeUnit, BudgetType } = p.Budget;
    await clients.budgets.send(
      new CreateBudgetCommand({
        AccountId: ACCOUNT,
        Budget: {
          BudgetName: nameOf(id),
          BudgetLimit: { Amount: String(BudgetLimit.Amount), Unit: BudgetLimit.Unit },
          TimeUnit,
          BudgetType,
        },
      }),
    );
    physicalIds.set(id, nameOf(id));
  }
  return physicalIds;
}

// The settings that decide when it fires, as the template has them; a plain metric stands for its own.
// biome-ignore lint/suspicious/noExplicitAny: as above
async function putAlarm(AlarmName: string, p: Record<string, any>) {
  const { ComparisonOperator, Threshold, EvaluationPeriods, DatapointsToAlarm, TreatMissingData } = p;
  await clients.cloudwatch.send(
    new PutMetricAlarmCommand({
      AlarmName,
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Period: 60,
      ComparisonOperator,
      Threshold,
      EvaluationPeriods,
      DatapointsToAlarm,
      TreatMissingData,
    }),
  );
}

async function check(live = physicalIds): Promise<Finding[]> {
  const claims: Claim[] = claimsOf(template, live);
  return (await Promise.all(claims.map((claim) => checkClaim(claim, clients)))).flat();
}
const differing = (findings: Finding[]) => findings.filter(({ ok }) => !ok).map(({ what }) => what);
/** What moto does not answer: DescribeTable's OnDemandThroughput, GetDeploymentGroup's alarmConfiguration. */
const UNANSWERED = [/^maximum on-demand throughput of /, /^rollback alarms of /];

describe('npm run check:deployed, against moto', () => {
  it('reads every claim the template makes (each kind), and matches all but what moto does not answer', async () => {
    const findings = await check();
    const kinds = new Set(claimsOf(template, physicalIds).map(({ kind }) => kind));
    expect([...kinds].sort()).toEqual(
      ['alarm', 'budget', 'deployment-group', 'reserved-concurrency', 'stage-throttle', 'table-throughput'].sort(),
    );
    const alarms = ofTemplate('AWS::CloudWatch::Alarm').length;
    expect(findings.filter(({ what }) => what.startsWith('alarm ')).length).toBe(alarms);
    // Reported as differences, each with nothing read live: only a real account shows them matching.
    expect(differing(findings)).toEqual(UNANSWERED.map((what) => expect.stringMatching(what)));
    for (const what of UNANSWERED) {
      expect(findings.find((finding) => what.test(finding.what))?.detail).toMatch(/live (\{\}|\[\])$/);
    }
  });

  it('reports each live value that differs from the template, naming it and both values', async () => {
    // The same stack made with other values than the template's: what a change by hand leaves.
    const drifted = structuredClone(template);
    // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties
    const change = (type: string, edit: (properties: Record<string, any>) => void) => {
      const [id, properties] = ofTemplate(type, drifted)[0] ?? [];
      edit(properties ?? {});
      return id ?? '';
    };
    const changed = [
      `stage throttle of ${change('AWS::ApiGatewayV2::Stage', (p) => Object.assign(p.DefaultRouteSettings, { ThrottlingRateLimit: 10_000, ThrottlingBurstLimit: 5_000 }))}`,
      `reserved concurrency of ${change('AWS::Lambda::Function', (p) => Object.assign(p, { ReservedConcurrentExecutions: 1 }))}`,
      `alarm ${change('AWS::CloudWatch::Alarm', (p) => Object.assign(p, { Threshold: 1_000_000 }))}`,
      `deployment config of ${change('AWS::CodeDeploy::DeploymentGroup', (p) => Object.assign(p, { DeploymentConfigName: 'CodeDeployDefault.LambdaAllAtOnce' }))}`,
      `limit of ${change('AWS::Budgets::Budget', (p) => Object.assign(p.Budget.BudgetLimit, { Amount: 5000 }))}`,
    ];

    const findings = await check(await deployOnMoto(drifted, 'Drift1'));

    expect(
      differing(findings)
        .filter((what) => !UNANSWERED.some((unanswered) => unanswered.test(what)))
        // Each names the resource by its logical id, then its type.
        .map((what) => what.replace(/ \(AWS::[\w:]+\)$/, ''))
        .sort(),
    ).toEqual([...changed].sort());
    const [, stage] = ofTemplate('AWS::ApiGatewayV2::Stage')[0] ?? [];
    expect(findings.find(({ what }) => what.startsWith('stage throttle of '))?.detail).toBe(
      `template {"rate":${stage?.DefaultRouteSettings.ThrottlingRateLimit},"burst":${stage?.DefaultRouteSettings.ThrottlingBurstLimit}}, live {"rate":10000,"burst":5000}`,
    );
  });

  it('reports a resource of the template that the stack does not list', async () => {
    const [alarmId] = ofTemplate('AWS::CloudWatch::Alarm')[0] ?? [];
    const listed = new Map([...physicalIds].filter(([id]) => id !== alarmId));

    const findings = await check(listed);

    expect(findings.filter(({ what }) => what.startsWith(`${alarmId} `))).toEqual([
      {
        what: `${alarmId} (AWS::CloudWatch::Alarm)`,
        ok: false,
        detail: 'in the template, not among the stack’s resources',
      },
    ]);
  });

  it('behind the edge, checks the function URL takes only signed requests, and that an unsigned one to it is refused', async () => {
    const edge = await synth({ env: 'dev', edge: 'true' }, { env: { account: ACCOUNT, region: REGION } });
    const edgeTemplate = edge.template.toJSON() as DeployedTemplate;
    const [urlId, url] = ofTemplate('AWS::Lambda::Url', edgeTemplate)[0] ?? [];
    const [functionId] = ofTemplate('AWS::Lambda::Function', edgeTemplate)[0] ?? [];
    const FunctionName = `${STACK}-${functionId}-Edge1`;
    await clients.lambda.send(
      new CreateFunctionCommand({
        FunctionName,
        Runtime: 'nodejs24.x',
        Handler: 'index.handler',
        Role: `arn:aws:iam::${ACCOUNT}:role/${ROLE}`,
        Code: { ZipFile: EMPTY_ZIP },
      }),
    );
    await clients.lambda.send(
      new CreateAliasCommand({ FunctionName, Name: url?.Qualifier, FunctionVersion: '$LATEST' }),
    );
    await clients.lambda.send(
      new CreateFunctionUrlConfigCommand({ FunctionName, Qualifier: url?.Qualifier, AuthType: url?.AuthType }),
    );
    const claims = claimsOf(
      edgeTemplate,
      new Map([
        [urlId ?? '', 'url'],
        [functionId ?? '', FunctionName],
      ]),
    ).filter(({ kind }) => kind === 'function-url');
    expect(claims).toHaveLength(1);
    // Moto serves no function URL: the unsigned request goes to a stand-in answering as Lambda would, or not.
    const probed: string[] = [];
    const answering = (status: number) => ({
      ...clients,
      probe: async (address: string) => {
        probed.push(address);
        return status;
      },
    });

    const refused = await checkClaim(claims[0] as Claim, answering(403));
    const open = await checkClaim(claims[0] as Claim, answering(200));

    expect(refused.map(({ ok, detail }) => ({ ok, detail }))).toEqual([
      { ok: true, detail: 'template "AWS_IAM", live "AWS_IAM"' },
      { ok: true, detail: 'refused 403 expected, answered 403' },
    ]);
    expect(open.map(({ ok }) => ok)).toEqual([true, false]);
    expect(probed[0]).toMatch(/^https:\/\/[\w.-]+\/plants$/);
  });
});
