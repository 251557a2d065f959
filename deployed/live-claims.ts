// What a deployed stack's template claims that only the live account can confirm.

/** A template as CloudFormation returns it (JSON: the CDK writes no YAML). */
export interface DeployedTemplate {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; Condition?: string }>;
}

export type Claim =
  | { kind: 'stage-throttle'; what: string; apiId: string; stageName: string; rateLimit: number; burstLimit: number }
  | { kind: 'function-url'; what: string; functionName: string; qualifier: string | undefined; authType: string }
  | { kind: 'reserved-concurrency'; what: string; functionName: string; reserved: number }
  | { kind: 'table-throughput'; what: string; tableName: string; maxRead: number; maxWrite: number | undefined }
  | { kind: 'alarm'; what: string; alarmName: string; expected: Record<string, unknown> }
  | {
      kind: 'deployment-group';
      what: string;
      application: string;
      group: string;
      /** Absent: the template leaves CodeDeploy its own default, nothing to compare. */
      deploymentConfigName: string | undefined;
      alarmNames: string[];
    }
  | { kind: 'budget'; what: string; budgetName: string; amount: number; unit: string }
  /** A resource the template makes, unconditionally, that CloudFormation does not list. */
  | { kind: 'missing'; what: string };

/** The resource types whose claims are read back; one the stack does not list is a finding too. */
const CHECKED_TYPES = [
  'AWS::ApiGatewayV2::Stage',
  'AWS::Lambda::Url',
  'AWS::Lambda::Function',
  'AWS::DynamoDB::Table',
  'AWS::CloudWatch::Alarm',
  'AWS::CodeDeploy::DeploymentGroup',
  'AWS::Budgets::Budget',
];

/** An alarm's settings that decide when it fires, as both the template and DescribeAlarms name them. */
export const ALARM_SETTINGS = [
  'ComparisonOperator',
  'Threshold',
  'EvaluationPeriods',
  'DatapointsToAlarm',
  'TreatMissingData',
] as const;

/** Thrown when the template holds a value this check cannot read: it says which, rather than guess. */
export class ClaimError extends Error {
  override name = 'ClaimError';
}

/** Every claim of `template`, with references resolved to the physical ids of `physicalIds` (logical → physical). */
export function claimsOf(template: DeployedTemplate, physicalIds: ReadonlyMap<string, string>): Claim[] {
  const resolve = (value: unknown, where: string): string => {
    if (typeof value === 'string') return value;
    const object = (value ?? {}) as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
    // A function's or alias's ARN stands for it: the Lambda API takes either, and its name.
    const id = object.Ref ?? object['Fn::GetAtt']?.[0];
    if (id === undefined || !(id in template.Resources)) {
      throw new ClaimError(`${where}: cannot resolve ${JSON.stringify(value)}`);
    }
    // Unlisted, the resource is a finding of its own; here it stands as a name nothing live has.
    return physicalIds.get(id) ?? `${id} (not among the stack's resources)`;
  };
  const claims: Claim[] = [];
  for (const [id, { Type, Properties: p = {}, Condition }] of Object.entries(template.Resources)) {
    const physical = physicalIds.get(id);
    const what = `${id} (${Type})`;
    if (physical === undefined) {
      // A resource under a condition may rightly be absent.
      if (Condition === undefined && CHECKED_TYPES.includes(Type)) claims.push({ kind: 'missing', what });
      continue;
    }
    if (Type === 'AWS::ApiGatewayV2::Stage') {
      const route = (p.DefaultRouteSettings ?? {}) as Record<string, number | undefined>;
      if (route.ThrottlingRateLimit === undefined || route.ThrottlingBurstLimit === undefined) continue;
      claims.push({
        kind: 'stage-throttle',
        what,
        apiId: resolve(p.ApiId, what),
        stageName: String(p.StageName),
        rateLimit: route.ThrottlingRateLimit,
        burstLimit: route.ThrottlingBurstLimit,
      });
    } else if (Type === 'AWS::Lambda::Url') {
      claims.push({
        kind: 'function-url',
        what,
        functionName: resolve(p.TargetFunctionArn, what),
        qualifier: p.Qualifier === undefined ? undefined : String(p.Qualifier),
        authType: String(p.AuthType),
      });
    } else if (Type === 'AWS::Lambda::Function' && typeof p.ReservedConcurrentExecutions === 'number') {
      claims.push({
        kind: 'reserved-concurrency',
        what,
        functionName: physical,
        reserved: p.ReservedConcurrentExecutions,
      });
    } else if (Type === 'AWS::DynamoDB::Table' && p.OnDemandThroughput !== undefined) {
      const { MaxReadRequestUnits, MaxWriteRequestUnits } = p.OnDemandThroughput as Record<string, number | undefined>;
      if (MaxReadRequestUnits === undefined) continue;
      claims.push({
        kind: 'table-throughput',
        what,
        tableName: physical,
        maxRead: MaxReadRequestUnits,
        maxWrite: MaxWriteRequestUnits,
      });
    } else if (Type === 'AWS::CloudWatch::Alarm') {
      const expected = Object.fromEntries(
        ALARM_SETTINGS.filter((key) => p[key] !== undefined).map((key) => [key, p[key]]),
      );
      claims.push({ kind: 'alarm', what, alarmName: physical, expected });
    } else if (Type === 'AWS::CodeDeploy::DeploymentGroup') {
      const alarms = ((p.AlarmConfiguration as { Alarms?: { Name: unknown }[] } | undefined)?.Alarms ?? []).map(
        ({ Name }) => resolve(Name, what),
      );
      claims.push({
        kind: 'deployment-group',
        what,
        application: resolve(p.ApplicationName, what),
        group: physical,
        deploymentConfigName: p.DeploymentConfigName === undefined ? undefined : String(p.DeploymentConfigName),
        alarmNames: alarms,
      });
    } else if (Type === 'AWS::Budgets::Budget') {
      const { Amount, Unit } = ((p.Budget as { BudgetLimit?: Record<string, unknown> })?.BudgetLimit ?? {}) as {
        Amount?: number;
        Unit?: string;
      };
      if (Amount === undefined) continue;
      claims.push({ kind: 'budget', what, budgetName: physical, amount: Number(Amount), unit: String(Unit) });
    }
  }
  return claims;
}
