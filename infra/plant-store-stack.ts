// The whole service: table → identity → function → delivery → front → monitoring → options → outputs.

import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { declaredUnset, functionEnvironment } from '../handlers/lib/environment.ts';
import { OPERATIONS, tableCallsOf } from '../handlers/lib/operations.ts';
import { alarmNotifications } from './alarm-mail.ts';
import { PlantsApi } from './api.ts';
import { Delivery } from './delivery.ts';
import { type Front, httpApiFront } from './front.ts';
import { FUNCTION_TIMEOUT_SECONDS, functionNodeOptions } from './function-runtime.ts';
import { HANDLER, handlerCode } from './handler-code.ts';
import { THROTTLED_KEYS_INSIGHTS } from './hot-partition.ts';
import { Identity } from './identity.ts';
import { Monitoring } from './monitoring.ts';
import type { OptionParts, ServiceParts } from './options.ts';
import { readSettings } from './settings.ts';
import { ENVIRONMENT_TAG, serviceNameOf, stackRoleName } from './stack-environment.ts';
import { LOG_RETENTION_DAYS, telemetryEnvironment } from './telemetry.ts';

const LOG_RETENTION = LOG_RETENTION_DAYS as RetentionDays;

export interface PlantStoreStackProps extends StackProps {
  /** What the options on ask of this stack (infra/options.ts, stacks.ts). */
  parts?: OptionParts[];
}

export class PlantStoreStack extends Stack {
  constructor(scope: Construct, id: string, props?: PlantStoreStackProps) {
    super(scope, id, props);
    // Unknown keys were refused where the options' keys are known (stacks.ts).
    const settings = readSettings((key) => this.node.tryGetContext(key));
    // One `service` dimension per environment: a dev stack's errors never reach production's alarms.
    const service = serviceNameOf(settings.environment);
    // Production keeps the data and the users when the stack goes or replaces them; a dev stack leaves
    // nothing, and neither does a first create that rolls back (CloudFormation's RetainExceptOnCreate).
    const removalPolicy = settings.dev ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;

    // Table: one item per plant, partitioned by owner (`user#<sub>` or `group#<name>`), sorted by plant id.
    const table = new Table(this, 'PlantsTable', {
      partitionKey: { name: 'owner', type: AttributeType.STRING },
      sortKey: { name: 'id', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The bill ceiling: no flood of requests can read (or an import write) faster than this.
      maxReadRequestUnits: settings.ceiling.maxReadRequestUnits,
      maxWriteRequestUnits: settings.ceiling.maxWriteRequestUnits,
      deletionProtection: !settings.dev,
      // Names the partition key being throttled, and records nothing while none is (hot-partition.ts).
      contributorInsightsSpecification: THROTTLED_KEYS_INSIGHTS,
      removalPolicy,
    });

    // Identity: a Cognito user pool and app client(s), unless an external OIDC issuer is given.
    const identity = new Identity(this, 'Identity', {
      settings: settings.identity,
      retain: !settings.dev,
      removalPolicy,
    });
    // Every resource carries its environment, which other environments' bootstrap policies refuse
    // (infra/deploy-access/bootstrap/). A dashboard takes no tags; its name carries the stack's.
    Tags.of(this).add(ENVIRONMENT_TAG, settings.environment, { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] });

    // Function: its own role and log group, so nothing beyond what is granted below is allowed. The
    // group stays in the Standard class: CloudWatch extracts the records' EMF metrics only there.
    const { telemetry } = settings;
    const logGroup = new LogGroup(this, 'FunctionLogs', {
      retention: LOG_RETENTION,
      removalPolicy,
      logGroupClass: LogGroupClass.STANDARD,
    });
    const role = new Role(this, 'FunctionRole', {
      roleName: stackRoleName(this.stackName, 'Function'),
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });
    logGroup.grantWrite(role);
    const fn = new LambdaFunction(this, 'ListPlantsFunction', {
      // Lambda caps a description at 256 characters.
      description: OPERATIONS.map(({ method, path }) => `${method} ${path}`)
        .join(', ')
        .slice(0, 256),
      code: handlerCode(),
      handler: HANDLER,
      runtime: Runtime.NODEJS_24_X,
      architecture: settings.architecture === 'x86_64' ? Architecture.X86_64 : Architecture.ARM_64,
      memorySize: settings.memoryMb,
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      tracing: telemetry.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SystemLogLevel[telemetry.systemLogLevel],
      // Opt in: taken from the account's unreserved pool, which new accounts may not have to spare.
      ...(settings.ceiling.reserveConcurrency && { reservedConcurrentExecutions: settings.ceiling.concurrency }),
      environment: {
        // sam local only overrides variables the template declares; empty means unset to both. The
        // identity's own values (an external issuer's JWKS URI, issuer type) come after and win.
        ...(settings.samLocal && {
          ...declaredUnset(
            'dynamodbEndpoint',
            'dynamodbDeadlineMs',
            'jwksTimeoutMs',
            'jwksUri',
            'issuerType',
            'publicBaseUrl',
          ),
          NODE_EXTRA_CA_CERTS: '',
        }),
        ...functionEnvironment({ tableName: table.tableName, groupCache: settings.groupCache }),
        ...identity.environment,
        ...telemetryEnvironment(telemetry, service),
        ...functionNodeOptions(settings.sourceMaps),
      },
    });
    if (telemetry.tracing) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Active X-Ray tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no ' +
          'resource-level permissions; nothing else in the role uses a wildcard resource.',
      });
    }

    // Grant: the calls the operations make on the table (operations.ts) and nothing else.
    table.grant(fn, ...tableCallsOf(OPERATIONS).map((call) => `dynamodb:${call}`));

    // Delivery: a version per change, the `live` alias, and CodeDeploy moving the alias with rollback.
    const delivery = new Delivery(this, 'Delivery', {
      fn,
      settings: settings.delivery,
      alarms: settings.alarms,
      service,
    });

    // Front: the HTTP API, or an option's in its place (infra/options.ts).
    const { corsOrigins, customDomain } = settings;
    const parts = props?.parts ?? [];
    const shared: ServiceParts = {
      alias: delivery.alias,
      settings,
      paths: OPERATIONS.map(({ path }) => path),
      methods: [...new Set(OPERATIONS.map(({ method }) => method))],
    };
    const optionFront = parts.find((part) => part.front)?.front;
    const front: Front = optionFront
      ? optionFront(this, shared)
      : httpApiFront(
          new PlantsApi(this, 'Api', {
            fn: delivery.alias,
            identity,
            throttle: settings.ceiling.throttle,
            corsOrigins,
            jwtAuthorizer: settings.jwtAuthorizer,
            customDomain,
            accessLog: telemetry.accessLog,
            accessLogClass: telemetry.accessLogClass,
            logRetention: LOG_RETENTION,
            removalPolicy,
          }),
          customDomain,
        );
    // A proxy's URL (-c publicBaseUrl) wins over whatever the front would name in next links.
    const variables = { ...front.environment, ...functionEnvironment({ publicBaseUrl: settings.publicBaseUrl }) };
    for (const [name, value] of Object.entries(variables)) fn.addEnvironment(name, value);

    // Monitoring: alarms (optionally mailed) and a dashboard; any of them firing stops a deployment.
    const monitoring = new Monitoring(this, 'Monitoring', {
      requests: front.requests,
      fn,
      table,
      alarms: settings.alarms,
      requestLog: telemetry.requestLog,
      service,
      machineClient: identity.machineClient !== undefined,
      frontAlarms: front.alarms,
    });
    delivery.rollBackOn(monitoring.alarms);
    for (const { extend } of parts) extend?.(this, shared);

    // Outputs
    const output = (id: string, description: string, value: string | undefined) => {
      if (value !== undefined) new CfnOutput(this, id, { description, value });
    };
    output('TableName', 'Plants table', table.tableName);
    output('UserPoolId', 'Cognito user pool', identity.userPool?.userPoolId);
    output('AppClientId', 'Cognito app client for users (token audience)', identity.appClient?.userPoolClientId);
    output(
      'MachineClientId',
      'Cognito client for the client-credentials grant',
      identity.machineClient?.userPoolClientId,
    );
    output('TokenEndpoint', 'OAuth 2.0 token endpoint of the user pool', identity.tokenEndpoint);
    for (const { id, description, value } of front.outputs) output(id, description, value);
    output(
      'PublicBaseUrl',
      'Base URL clients use behind a proxy or CDN (-c publicBaseUrl): where next links point',
      settings.publicBaseUrl && `${settings.publicBaseUrl}/`,
    );
    output('FunctionName', 'The function; the API invokes its `live` alias', fn.functionName);
    output('DeploymentApplication', 'CodeDeploy application', delivery.deploymentGroup.application.applicationName);
    output('DeploymentGroup', 'CodeDeploy deployment group', delivery.deploymentGroup.deploymentGroupName);
    output('AlarmNotifications', 'Who the alarms reach (-c alarmEmail)', alarmNotifications(settings.alarms.email));
  }
}
