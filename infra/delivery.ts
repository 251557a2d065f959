// Safe delivery: a version per change, and CodeDeploy moving the `live` alias with alarm rollback.

import { type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type { Alarm, IAlarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import {
  type ILambdaDeploymentConfig,
  LambdaDeploymentConfig,
  LambdaDeploymentGroup,
} from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alias, type CfnAlias, type Function as LambdaFunction, type Version } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { DIMENSIONS, METRICS, METRICS_NAMESPACE, SERVICE_NAME } from '../handlers/lib/telemetry-names.ts';
import type { DeliverySettings, DeploymentStrategy } from './delivery-settings.ts';
import { ALARM_PERIOD, alarm, busyMinuteRate } from './monitoring.ts';
import type { AlarmSettings } from './settings.ts';
import { stackRoleName } from './stack-environment.ts';

export const LIVE_ALIAS = 'live';
/** CodeDeploy takes at most 10 alarms per deployment group. */
const MAX_ALARMS = 10;

const CONFIGS: Record<DeploymentStrategy, ILambdaDeploymentConfig> = {
  canary: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  // Steps of 2 minutes, not 1: the new-version alarms need about 3 minutes to fire, by which
  // time a 1-minute ramp would have sent it 30-40% of requests instead of 20%.
  linear: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_2MINUTES,
  'all-at-once': LambdaDeploymentConfig.ALL_AT_ONCE,
};

/** The group's service role, as LambdaDeploymentGroup would make it, named for the stack (stackRoleName). */
function codeDeployRole(scope: Construct): Role {
  return new Role(scope, 'CodeDeployRole', {
    roleName: stackRoleName(Stack.of(scope).stackName, 'CodeDeploy'),
    assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
    managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
  });
}

/**
 * New-version alarms fire on 2 bad minutes of 3: a version failing from its first request is caught about
 * 3 minutes into a 5-minute canary, while one unlucky minute does not roll back.
 */
const EVALUATION_PERIODS = 3;
const DATAPOINTS = 2;

export interface DeliveryProps {
  fn: LambdaFunction;
  settings: DeliverySettings;
  alarms: AlarmSettings;
  /** The `service` dimension of the function's metrics (infra/stack-environment.ts: one per environment). */
  service?: string;
}

export class Delivery extends Construct {
  /** What the API invokes; moved from version to version by CodeDeploy. */
  readonly alias: Alias;
  /** The version this synth publishes: a new one whenever the function's code or configuration changes. */
  readonly version: Version;
  readonly deploymentGroup: LambdaDeploymentGroup;
  /** Alarms on the version being deployed alone (none for all-at-once, which has no shift to watch). */
  readonly newVersionAlarms: Alarm[];
  private readonly gated: boolean;

  constructor(scope: Construct, id: string, { fn, settings, alarms, service = SERVICE_NAME }: DeliveryProps) {
    super(scope, id);
    // currentVersion's logical id hashes every version-locked property (code, environment,
    // memory, role, logging…), so any such change publishes a new version.
    this.version = fn.currentVersion;
    this.alias = new Alias(this, 'LiveAlias', {
      aliasName: LIVE_ALIAS,
      version: this.version,
      description: 'What the API invokes; CodeDeploy moves it to each new version',
      ...(settings.provisionedConcurrency > 0 && {
        provisionedConcurrentExecutions: settings.provisionedConcurrency,
      }),
    });

    // All at once leaves no time to watch: alarms would only stop a deploy that starts while one
    // fires, which is exactly when a fix must get through.
    this.gated = settings.strategy !== 'all-at-once';
    this.newVersionAlarms = this.gated ? newVersionAlarms(this, fn, this.version, alarms, service) : [];
    this.deploymentGroup = new LambdaDeploymentGroup(this, 'DeploymentGroup', {
      alias: this.alias,
      role: codeDeployRole(this),
      deploymentConfig: CONFIGS[settings.strategy],
      alarms: [...this.newVersionAlarms],
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: this.gated },
    });
    // The alias update starts the shift, so the group (and the alarms it names, which point at the
    // new version) must be updated first; the update policy alone leaves the order implicit.
    const cfnAlias = this.alias.node.defaultChild as CfnAlias;
    cfnAlias.addResourceDependency(this.deploymentGroup.node.defaultChild as CfnResource);
    Validations.of(this.deploymentGroup.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        'The AWS-managed policy CodeDeploy documents for Lambda deployments: read alarms and provisioned concurrency, ' +
        'get and update aliases, and invoke only hook functions named CodeDeployHook_* (none here); it has no write ' +
        'access to data and AWS keeps it in step with the service.',
    });
  }

  /** The stack's own alarms stop a shift too: no deploy goes on while the service is unhealthy. */
  rollBackOn(alarms: IAlarm[]): void {
    if (!this.gated) return;
    const count = this.newVersionAlarms.length + alarms.length;
    if (count > MAX_ALARMS) {
      throw new Error(`A CodeDeploy deployment group takes at most ${MAX_ALARMS} alarms; this one would have ${count}`);
    }
    for (const alarm of alarms) this.deploymentGroup.addAlarm(alarm);
  }
}

/**
 * Alarms dimensioned on this synth's version (Lambda's ExecutedVersion, the EMF `version`): they see the new
 * version while it gets 10% of the requests, where function-wide metrics would dilute it.
 */
function newVersionAlarms(
  scope: Construct,
  fn: LambdaFunction,
  version: Version,
  settings: AlarmSettings,
  service: string,
): Alarm[] {
  const lambda = (metricName: string, statistic: string) =>
    new Metric({
      namespace: 'AWS/Lambda',
      metricName,
      dimensionsMap: {
        FunctionName: fn.functionName,
        Resource: `${fn.functionName}:${LIVE_ALIAS}`,
        ExecutedVersion: version.version,
      },
      statistic,
      period: ALARM_PERIOD,
    });
  // The function's EMF count for this version, as a share of its invocations.
  const share = (metricName: string, label: string) =>
    busyMinuteRate(
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { [DIMENSIONS.service]: service, [DIMENSIONS.version]: version.version },
        statistic: 'Sum',
        period: ALARM_PERIOD,
      }),
      lambda('Invocations', 'Sum'),
      settings.minRequests,
      label,
    );
  // Handled failures (a DynamoDB or JWKS outage, a bug mapped to 500) are answers, not Lambda
  // Errors, so the 5xx share comes from the function's own count.
  const serverErrorRate = share(METRICS.serverErrors, 'new version 5xx rate (%)');
  return [
    versionAlarm(
      scope,
      'NewVersionServerErrorRate',
      serverErrorRate,
      settings.errorRatePercent,
      `5xx above ${settings.errorRatePercent}% of the new version's requests (minutes with at least ${settings.minRequests})`,
    ),
    versionAlarm(scope, 'NewVersionErrors', lambda('Errors', 'Sum'), 0, 'the new version crashed or timed out'),
    versionAlarm(
      scope,
      'NewVersionP99Duration',
      lambda('Duration', 'p99'),
      settings.p99Ms,
      `p99 duration of the new version above ${settings.p99Ms} ms`,
    ),
  ];
}

function versionAlarm(scope: Construct, id: string, metric: IMetric, threshold: number, description: string): Alarm {
  // Before the shift the new version has no traffic: missing data is healthy, as for every alarm.
  return alarm(scope, id, metric, threshold, `Rolls a deployment back: ${description}`, {
    datapoints: DATAPOINTS,
    evaluationPeriods: EVALUATION_PERIODS,
  });
}
