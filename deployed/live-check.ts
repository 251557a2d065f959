// Each claim of the deployed template (live-claims.ts) checked against the account by read-only calls.

import { type ApiGatewayV2Client, GetStageCommand } from '@aws-sdk/client-apigatewayv2';
import { type BudgetsClient, DescribeBudgetCommand } from '@aws-sdk/client-budgets';
import { type CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { type CodeDeployClient, GetDeploymentGroupCommand } from '@aws-sdk/client-codedeploy';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetFunctionConcurrencyCommand, GetFunctionUrlConfigCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { ALARM_SETTINGS, type Claim } from './live-claims.ts';

export interface LiveClients {
  apigateway: ApiGatewayV2Client;
  lambda: LambdaClient;
  dynamodb: DynamoDBClient;
  cloudwatch: CloudWatchClient;
  codedeploy: CodeDeployClient;
  budgets: BudgetsClient;
  /** The stack's account (Budgets is addressed by it). */
  accountId: string;
  /** An unsigned GET: its status. */
  probe(url: string): Promise<number>;
}

export interface Finding {
  what: string;
  ok: boolean;
  /** What was compared: `expected … live …`, or the call that failed. */
  detail: string;
}

const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));
const compare = (what: string, expected: unknown, live: unknown): Finding => ({
  what,
  ok: JSON.stringify(expected) === JSON.stringify(live),
  detail: `template ${show(expected)}, live ${show(live)}`,
});

/** The findings of one claim; a failed call is a failed finding that names the call and its error. */
export async function checkClaim(claim: Claim, clients: LiveClients): Promise<Finding[]> {
  try {
    return await readAndCompare(claim, clients);
  } catch (error) {
    const { name = 'Error', message = '' } = error as Error;
    return [{ what: claim.what, ok: false, detail: `${name}: ${message}`.trim() }];
  }
}

async function readAndCompare(claim: Claim, clients: LiveClients): Promise<Finding[]> {
  switch (claim.kind) {
    case 'missing':
      return [{ what: claim.what, ok: false, detail: 'in the template, not among the stack’s resources' }];
    case 'stage-throttle': {
      const stage = await clients.apigateway.send(
        new GetStageCommand({ ApiId: claim.apiId, StageName: claim.stageName }),
      );
      const route = stage.DefaultRouteSettings ?? {};
      return [
        compare(
          `stage throttle of ${claim.what}`,
          { rate: claim.rateLimit, burst: claim.burstLimit },
          { rate: route.ThrottlingRateLimit, burst: route.ThrottlingBurstLimit },
        ),
      ];
    }
    case 'function-url': {
      const config = await clients.lambda.send(
        new GetFunctionUrlConfigCommand({ FunctionName: claim.functionName, Qualifier: claim.qualifier }),
      );
      const findings = [compare(`auth type of ${claim.what}`, claim.authType, config.AuthType)];
      if (claim.authType === 'AWS_IAM' && config.FunctionUrl) {
        // Lambda refuses an unsigned request to an AWS_IAM URL with 403 before the function runs.
        const status = await clients.probe(new URL('plants', config.FunctionUrl).href);
        findings.push({
          what: `an unsigned request to ${claim.what}, bypassing the edge`,
          ok: status === 403,
          detail: `refused 403 expected, answered ${status}`,
        });
      }
      return findings;
    }
    case 'reserved-concurrency': {
      const live = await clients.lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: claim.functionName }));
      return [compare(`reserved concurrency of ${claim.what}`, claim.reserved, live.ReservedConcurrentExecutions)];
    }
    case 'table-throughput': {
      const { Table } = await clients.dynamodb.send(new DescribeTableCommand({ TableName: claim.tableName }));
      const live = Table?.OnDemandThroughput;
      return [
        compare(
          `maximum on-demand throughput of ${claim.what}`,
          { read: claim.maxRead, write: claim.maxWrite },
          { read: live?.MaxReadRequestUnits, write: live?.MaxWriteRequestUnits },
        ),
      ];
    }
    case 'alarm': {
      const { MetricAlarms = [] } = await clients.cloudwatch.send(
        new DescribeAlarmsCommand({ AlarmNames: [claim.alarmName] }),
      );
      const [alarm] = MetricAlarms;
      const live =
        alarm &&
        Object.fromEntries(ALARM_SETTINGS.filter((key) => key in claim.expected).map((key) => [key, alarm[key]]));
      return [compare(`alarm ${claim.what}`, claim.expected, live)];
    }
    case 'deployment-group': {
      const { deploymentGroupInfo: group } = await clients.codedeploy.send(
        new GetDeploymentGroupCommand({ applicationName: claim.application, deploymentGroupName: claim.group }),
      );
      const alarms = group?.alarmConfiguration?.enabled
        ? (group.alarmConfiguration.alarms ?? []).map(({ name }) => name ?? '').sort()
        : [];
      const findings = [compare(`rollback alarms of ${claim.what}`, [...claim.alarmNames].sort(), alarms)];
      if (claim.deploymentConfigName !== undefined) {
        findings.push(
          compare(`deployment config of ${claim.what}`, claim.deploymentConfigName, group?.deploymentConfigName),
        );
      }
      return findings;
    }
    case 'budget': {
      const { Budget } = await clients.budgets.send(
        new DescribeBudgetCommand({ AccountId: clients.accountId, BudgetName: claim.budgetName }),
      );
      const limit = Budget?.BudgetLimit;
      return [
        compare(
          `limit of ${claim.what}`,
          { amount: claim.amount, unit: claim.unit },
          { amount: limit?.Amount === undefined ? undefined : Number(limit.Amount), unit: limit?.Unit },
        ),
      ];
    }
  }
}
