// The HTTP API in front of the function: its routes, a throttled and access-logged stage, options.

import type { RemovalPolicy } from 'aws-cdk-lib';
import { Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  ApiMapping,
  CorsHttpMethod,
  DomainName,
  HttpApi,
  HttpMethod,
  type HttpStage,
  LogGroupLogDestination,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { OPERATIONS } from '../handlers/lib/operations.ts';
import { accessLogFields } from '../handlers/lib/telemetry-names.ts';
import { CORS_RULE } from './cors.ts';
import type { CustomDomain } from './custom-domain.ts';
import type { Identity } from './identity.ts';
import type { TelemetrySettings } from './telemetry.ts';

export interface PlantsApiProps {
  fn: IFunction;
  identity: Identity;
  throttle: { rateLimit: number; burstLimit: number };
  corsOrigins: string[];
  /** API Gateway verifies the JWT (issuer, audience, scopes) before invoking the function. */
  jwtAuthorizer: boolean;
  customDomain: CustomDomain | undefined;
  accessLog: TelemetrySettings['accessLog'];
  accessLogClass: TelemetrySettings['accessLogClass'];
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

export class PlantsApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The custom domain, when one is configured: its URL and the DNS target to point the name at. */
  readonly domain?: { url: string; name: DomainName };

  constructor(scope: Construct, id: string, props: PlantsApiProps) {
    super(scope, id);
    const { fn, identity, throttle, corsOrigins, customDomain } = props;

    this.api = new HttpApi(this, 'HttpApi', {
      description: 'Plant store',
      createDefaultStage: false,
      ...(corsOrigins.length > 0 && {
        corsPreflight: {
          allowOrigins: corsOrigins,
          allowMethods: [...new Set(OPERATIONS.map(({ method }) => CorsHttpMethod[method]))],
          ...CORS_RULE,
        },
      }),
    });
    // Every operation of the API, each a route to the function (handlers/lib/operations.ts).
    const integration = new HttpLambdaIntegration('ListPlantsIntegration', fn);
    const authorizer =
      props.jwtAuthorizer &&
      // The same issuer and audience the function checks; the function still verifies (defence in depth).
      new HttpJwtAuthorizer('JwtAuthorizer', identity.issuer, { jwtAudience: identity.audience });
    for (const operation of OPERATIONS) {
      this.api.addRoutes({
        path: operation.path,
        methods: [HttpMethod[operation.method]],
        integration,
        ...(authorizer && {
          authorizer,
          // Like the function, the gateway wants any one of these (403 otherwise).
          ...(identity.requiredScopes.length > 0 && { authorizationScopes: identity.requiredScopes }),
        }),
      });
    }
    if (!props.jwtAuthorizer) {
      Validations.of(this.api).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'The function verifies the bearer token itself (aws-jwt-verify) so that 401/403 bodies follow the API ' +
          'Error contract and the same check runs under sam local; -c jwtAuthorizer=true adds a gateway check.',
      });
    }

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
      logGroupClass: props.accessLogClass === 'standard' ? LogGroupClass.STANDARD : LogGroupClass.INFREQUENT_ACCESS,
    });
    const format = AccessLogFormat.custom(JSON.stringify(accessLogFields(props.accessLog, props.jwtAuthorizer)));
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format },
    });

    if (customDomain) {
      const { domainName, certificateArn, basePath } = customDomain;
      const name = new DomainName(this, 'DomainName', {
        domainName,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      new ApiMapping(this, 'ApiMapping', {
        api: this.api,
        domainName: name,
        stage: this.stage,
        apiMappingKey: basePath,
      });
      this.domain = { url: `${customDomainBaseUrl(customDomain)}/`, name };
    }
  }
}

/** The URL clients use on the custom domain (no trailing slash): the base of the function's next links. */
export const customDomainBaseUrl = ({ domainName, basePath }: CustomDomain): string =>
  `https://${domainName}${basePath ? `/${basePath}` : ''}`;
