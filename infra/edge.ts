// The opt-in edge (-c edge=true): a CloudFront distribution in front of the HTTP API, guarded by the
// WAF web ACL (edge-waf.ts). CloudFront adds a secret header (from Secrets Manager) to every request
// it forwards, and the function refuses requests without it, so nobody gets around WAF's limits by
// calling the execute-api URL, which an HTTP API cannot switch off or restrict with a policy.

import { type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { EDGE_ORIGIN_HEADER } from '../handlers/lib/environment.ts';
import { SettingsError } from './context-values.ts';
import type { EdgeSettings } from './edge-settings.ts';
import { EDGE_WAF_REGION, EdgeWebAcl } from './edge-waf.ts';

const ACKNOWLEDGED: Record<string, string> = {
  'AwsSolutions-CFR1':
    'An API for its own users, wherever they are; WAF limits per caller instead. A deployment that must refuse ' +
    'countries adds a geo match rule to the web ACL.',
  'AwsSolutions-CFR3':
    'The HTTP API access log keeps one record of every request that reaches the API, and WAF its metrics and sampled ' +
    'requests of what it refused; CloudFront standard logs would bill a third copy (docs/edge.md says how to add them).',
  'AwsSolutions-CFR4':
    'The default *.cloudfront.net certificate cannot set a minimum TLS version; clients send bearer tokens, so a ' +
    'deployment with its own name on the distribution sets TLSv1.2_2021 with that certificate.',
};

export interface EdgeProps {
  api: HttpApi;
  settings: EdgeSettings;
  /** The web ACL of the EdgeWafStack in us-east-1 (stacks.ts); undefined: made here, in a us-east-1 stack. */
  webAclArn: string | undefined;
  /** Browser origins allowed by CORS: preflights (OPTIONS) must reach the API too. */
  cors: boolean;
  removalPolicy: RemovalPolicy;
}

export class Edge extends Construct {
  readonly distribution: Distribution;
  /** What clients call, without a trailing slash: the base of next links. */
  readonly baseUrl: string;
  /** What the function reads from EDGE_ORIGIN_SECRET: a dynamic reference, resolved by CloudFormation at deploy. */
  readonly originSecret: string;
  /** The next generation's (EDGE_ORIGIN_NEXT_SECRET): the function accepts it before CloudFront sends it. */
  readonly nextOriginSecret: string;

  constructor(scope: Construct, id: string, { api, settings, webAclArn, cors, removalPolicy }: EdgeProps) {
    super(scope, id);
    // The template holds {{resolve:secretsmanager:…}}, never the value. CloudFormation resolves a
    // dynamic reference only when it updates the resource holding it, so a value changed outside
    // CloudFormation would reach the function at its next deploy and the distribution never: every
    // request refused. Each generation is a Secret of its own (its own logical id), made one
    // generation ahead: the distribution sends generation N, the function accepts N and N+1. Raising
    // N switches the distribution (updated first: the function depends on it, plant-store-stack.ts) to a
    // value every running version already accepts; then the function's new version accepts N+1 and
    // N+2. No version ever meets a header it does not know, during the canary or a rollback.
    const generation = settings.secretGeneration;
    this.originSecret = this.secret(generation, removalPolicy);
    this.nextOriginSecret = this.secret(generation + 1, removalPolicy);

    const { region, urlSuffix } = Stack.of(this);
    const origin = new HttpOrigin(`${api.apiId}.execute-api.${region}.${urlSuffix}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      customHeaders: { [EDGE_ORIGIN_HEADER]: this.originSecret },
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Plant store API: AWS WAF per-caller limits in front of the HTTP API',
      webAclId: webAclArn ?? this.webAclHere(settings),
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin,
        allowedMethods: cors ? AllowedMethods.ALLOW_GET_HEAD_OPTIONS : AllowedMethods.ALLOW_GET_HEAD,
        // Per-user data is never cached at the edge; with caching off, the AllViewer policies are
        // the ones that may forward Authorization. Host is left out: API Gateway routes on its own.
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        // Refused rather than redirected: a redirect would have sent the bearer token in clear first.
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      },
    });
    this.baseUrl = `https://${this.distribution.distributionDomainName}`;
    for (const [id, reason] of Object.entries(ACKNOWLEDGED))
      Validations.of(this.distribution).acknowledge({ id, reason });
  }

  /**
   * Generation 1 keeps the logical id and properties the edge first shipped with, so existing stacks
   * keep their value (a changed property could make CloudFormation generate a new one).
   */
  private secret(generation: number, removalPolicy: RemovalPolicy): string {
    const secret = new Secret(this, generation === 1 ? 'OriginSecret' : `OriginSecret${generation}`, {
      description: `The header ${EDGE_ORIGIN_HEADER} CloudFront adds to requests it forwards to the plant store API`,
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotated by -c edgeSecretGeneration=N+1 (docs/edge.md), never by Secrets Manager: CloudFormation resolves the ' +
        'value only for resources it updates, so a value changed outside it would reach the function at its next ' +
        'deploy but not the distribution, and every request would be refused. The header is compared, not used to ' +
        'authenticate anyone (callers still need a valid token).',
    });
    return secret.secretValue.unsafeUnwrap();
  }

  // CloudFront's web ACL can only be created in us-east-1: here when this stack is there, else
  // plantStoreStacks() makes it in a stack of its own there and passes its ARN.
  private webAclHere(settings: EdgeSettings): string {
    if (Stack.of(this).region !== EDGE_WAF_REGION) {
      throw new SettingsError(
        `edge=true: the web ACL lives in ${EDGE_WAF_REGION}; synthesize through infra/app.ts (plantStoreStacks)`,
      );
    }
    return new EdgeWebAcl(this, 'Waf', settings).webAcl.attrArn;
  }
}
