// The whole service: table → identity → function → grant → API → monitoring → outputs. Settings come from
// CDK context (infra/settings.ts); cdk-nag acknowledgements sit next to what they are about.

import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpMethod, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccountRecovery, FeaturePlan, Mfa, UserPool } from 'aws-cdk-lib/aws-cognito';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { FUNCTION_MEMORY_MB, FUNCTION_NODE_OPTIONS, FUNCTION_TIMEOUT_SECONDS } from './function-runtime.ts';
import { HANDLER, handlerCode } from './handler-code.ts';
import { METRICS_NAMESPACE, Monitoring, SERVICE_NAME } from './monitoring.ts';
import { readSettings } from './settings.ts';

const LOG_RETENTION = RetentionDays.ONE_MONTH;

export class PlantStoreStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const settings = readSettings((key) => this.node.tryGetContext(key));
    // Production keeps the data and the users when the stack goes; a dev stack leaves nothing.
    const removalPolicy = settings.dev ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    // Table: one item per plant, partitioned by owner (the token's `sub`), sorted by plant id.
    const table = new Table(this, 'PlantsTable', {
      partitionKey: { name: 'owner', type: AttributeType.STRING },
      sortKey: { name: 'id', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: !settings.dev,
      removalPolicy,
    });

    // Identity: a Cognito user pool and app client, unless an external OIDC issuer is given.
    let authEnvironment: Record<string, string>;
    let userPool: UserPool | undefined;
    let appClientId: string | undefined;
    if (settings.externalAuth) {
      const { issuer, audience, jwksUri, tokenUse } = settings.externalAuth;
      authEnvironment = {
        AUTH_ISSUER: issuer,
        AUTH_AUDIENCE: audience,
        ...(jwksUri && { AUTH_JWKS_URI: jwksUri }),
        ...(tokenUse && { AUTH_TOKEN_USE: tokenUse }),
      };
    } else {
      userPool = new UserPool(this, 'UserPool', {
        selfSignUpEnabled: false,
        signInAliases: { email: true },
        passwordPolicy: {
          minLength: 12,
          requireLowercase: true,
          requireUppercase: true,
          requireDigits: true,
          requireSymbols: true,
        },
        mfa: Mfa.OPTIONAL,
        mfaSecondFactor: { otp: true, sms: false },
        accountRecovery: AccountRecovery.EMAIL_ONLY,
        featurePlan: FeaturePlan.ESSENTIALS,
        deletionProtection: !settings.dev,
        removalPolicy,
      });
      Validations.of(userPool).acknowledge(
        {
          id: 'AwsSolutions-COG2',
          reason:
            'MFA is optional (TOTP) so the README can get a token with the AWS CLI alone; deployments that need ' +
            'required MFA point authIssuer at their own identity provider.',
        },
        {
          id: 'AwsSolutions-COG8',
          reason:
            'Threat protection needs the Cognito Plus feature plan, billed per monthly active user; the default ' +
            'pool stays on Essentials, and password policy, no self sign-up and optional TOTP cover the basics.',
        },
      );
      const appClient = userPool.addClient('AppClient', {
        // USER_PASSWORD_AUTH lets `aws cognito-idp initiate-auth` get a token; SRP is for app SDKs.
        authFlows: { userPassword: true, userSrp: true },
        generateSecret: false,
        disableOAuth: true,
        preventUserExistenceErrors: true,
        accessTokenValidity: Duration.hours(1),
        idTokenValidity: Duration.hours(1),
      });
      appClientId = appClient.userPoolClientId;
      authEnvironment = {
        AUTH_ISSUER: userPool.userPoolProviderUrl,
        // Cognito access tokens name the app client in `client_id`; the handler checks it there.
        AUTH_AUDIENCE: appClient.userPoolClientId,
        AUTH_TOKEN_USE: 'access',
      };
    }

    // Function: its own role and log group, so nothing beyond what is granted below is allowed.
    const logGroup = new LogGroup(this, 'FunctionLogs', { retention: LOG_RETENTION, removalPolicy });
    const role = new Role(this, 'FunctionRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const fn = new LambdaFunction(this, 'ListPlantsFunction', {
      description: 'GET /plants: the calling user’s plants',
      code: handlerCode(),
      handler: HANDLER,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: FUNCTION_MEMORY_MB,
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      tracing: Tracing.ACTIVE,
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        PLANTS_TABLE_NAME: table.tableName,
        ...authEnvironment,
        ...(settings.requiredScope && { AUTH_REQUIRED_SCOPE: settings.requiredScope }),
        // Powertools: service name and metrics namespace the dashboard reads, log level, debug sampling.
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: settings.logLevel,
        POWERTOOLS_LOGGER_SAMPLE_RATE: String(settings.debugSampleRate),
        NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
        // sam local only overrides variables the template declares; empty means unset to both.
        ...(settings.samLocal && { DYNAMODB_ENDPOINT: '', AUTH_JWKS_URI: '', NODE_EXTRA_CA_CERTS: '' }),
      },
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active X-Ray tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no ' +
        'resource-level permissions; nothing else in the role uses a wildcard resource.',
    });

    // Grant: Query on the table and nothing else (no Scan, no GetItem, no writes).
    table.grant(fn, 'dynamodb:Query');

    // API: HTTP API, GET /plants → the function, throttled and access-logged on its stage.
    const api = new HttpApi(this, 'HttpApi', {
      description: 'Plant store',
      createDefaultStage: false,
      ...(settings.corsOrigins.length > 0 && {
        corsPreflight: {
          allowOrigins: settings.corsOrigins,
          allowMethods: [CorsHttpMethod.GET],
          allowHeaders: ['authorization'],
          // Pagination is in the Link header, so browsers must be allowed to read it.
          exposeHeaders: ['link'],
          maxAge: Duration.hours(1),
        },
      }),
    });
    api.addRoutes({
      path: '/plants',
      methods: [HttpMethod.GET],
      integration: new HttpLambdaIntegration('ListPlantsIntegration', fn),
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: LOG_RETENTION, removalPolicy });
    const stage = api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: settings.throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat() },
    });
    Validations.of(api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'The function verifies the bearer token itself (aws-jwt-verify) so that 401/403 bodies follow the API ' +
        'Error contract and the same check runs under sam local; no route is reachable without it.',
    });

    // Monitoring: alarms (optionally mailed) and a dashboard.
    new Monitoring(this, 'Monitoring', {
      api,
      fn,
      table,
      alarmEmail: settings.alarmEmail,
      p99DurationThreshold: Duration.seconds(3),
    });

    // Outputs
    new CfnOutput(this, 'ApiUrl', { description: 'Base URL; GET <ApiUrl>plants', value: stage.url });
    new CfnOutput(this, 'TableName', { description: 'Plants table', value: table.tableName });
    if (userPool && appClientId) {
      new CfnOutput(this, 'UserPoolId', { description: 'Cognito user pool', value: userPool.userPoolId });
      new CfnOutput(this, 'AppClientId', { description: 'Cognito app client (token audience)', value: appClientId });
    }
  }
}

/** One JSON object per request: who, what, outcome, and why it failed when it did. */
function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: '$context.requestId',
      requestTime: '$context.requestTime',
      sourceIp: '$context.identity.sourceIp',
      userAgent: '$context.identity.userAgent',
      routeKey: '$context.routeKey',
      protocol: '$context.protocol',
      status: '$context.status',
      responseLength: '$context.responseLength',
      responseLatency: '$context.responseLatency',
      integrationLatency: '$context.integrationLatency',
      integrationStatus: '$context.integrationStatus',
      integrationError: '$context.integrationErrorMessage',
      error: '$context.error.message',
    }),
  );
}
