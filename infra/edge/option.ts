// The edge as an option on the service (infra/options.ts): its settings (-c edge=true and its rate limits,
// waf.ts), its web ACL's stack beside the service's outside us-east-1, and CloudFront + WAF as the service's front.

import { type ContextReader, flag, integer, oneOf, SettingsError, text } from '../context-values.ts';
import type { ServiceOption } from '../options.ts';
import { Edge } from './edge.ts';
import { EDGE_WAF_STACK, type EdgeSettings, EdgeWafStack } from './waf.ts';

export const EDGE_CONTEXT_KEYS = ['edge', 'edgeWindowSeconds', 'edgeTokenLimit', 'edgeIpLimit'] as const;

/** CloudFront's certificates live in ACM in us-east-1, whatever the Region of the stack. */
const CLOUDFRONT_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;
const WINDOWS = ['60', '120', '300', '600'] as const;
/** WAF's bounds on a rate-based rule's limit. */
const WAF_MIN_LIMIT = 10;
const WAF_MAX_LIMIT = 2_000_000_000;
/**
 * Defaults as shares of the ceiling's rate over the window: a token a fifth, an address half (a NAT shares
 * one), everyone together all of it.
 */
const TOKEN_SHARE = 0.2;
const IP_SHARE = 0.5;

/** Undefined without `-c edge=true`; the edge's keys without it are refused rather than ignored. */
export function readEdge(context: ContextReader, ceilingRatePerSecond: number): EdgeSettings | undefined {
  if (!flag(context, 'edge')) {
    const stray = EDGE_CONTEXT_KEYS.find((key) => key !== 'edge' && text(context, key) !== undefined);
    if (stray) throw new SettingsError(`${stray} needs edge=true`);
    return undefined;
  }
  refuseCombinations(context);
  const windowSeconds = Number(oneOf(context, 'edgeWindowSeconds', WINDOWS) ?? '60') as EdgeSettings['windowSeconds'];
  const share = (fraction: number) =>
    Math.min(WAF_MAX_LIMIT, Math.max(WAF_MIN_LIMIT, Math.round(ceilingRatePerSecond * windowSeconds * fraction)));
  return {
    windowSeconds,
    tokenLimit: integer(context, 'edgeTokenLimit', share(TOKEN_SHARE), WAF_MIN_LIMIT, WAF_MAX_LIMIT),
    ipLimit: integer(context, 'edgeIpLimit', share(IP_SHARE), WAF_MIN_LIMIT, WAF_MAX_LIMIT),
    totalLimit: share(1),
  };
}

/** What the edge replaces (the HTTP API) or what cannot reach it (sam local) can't come with it. */
function refuseCombinations(context: ContextReader): void {
  if (flag(context, 'samLocal')) {
    throw new SettingsError(
      'edge=true and samLocal=true cannot be combined: sam local calls the function without CloudFront, which is the only caller it serves',
    );
  }
  if (flag(context, 'jwtAuthorizer')) {
    throw new SettingsError(
      'edge=true and jwtAuthorizer=true cannot be combined: the authorizer is the HTTP API’s, and the edge replaces the HTTP API (the function still verifies every token)',
    );
  }
  if (text(context, 'basePath') !== undefined) {
    throw new SettingsError('edge=true and basePath cannot be combined: the distribution serves the API at its root');
  }
  // The custom domain goes on the distribution (docs/edge.md), whose certificate must be in us-east-1.
  const certificateArn = text(context, 'certificateArn');
  if (certificateArn !== undefined && !CLOUDFRONT_CERTIFICATE.test(certificateArn)) {
    throw new SettingsError(
      `edge=true puts domainName on the CloudFront distribution, whose certificate must be in ACM in us-east-1, got "${certificateArn}"`,
    );
  }
}

export const option: ServiceOption = {
  contextKeys: EDGE_CONTEXT_KEYS,
  besideStacks: [EDGE_WAF_STACK],
  samples: [
    { name: 'edge=true outside us-east-1', context: { edge: 'true' }, region: 'eu-west-1' },
    { name: 'edge=true in us-east-1', context: { edge: 'true' }, region: 'us-east-1' },
  ],
  apply(app, id, env, context, service) {
    const settings = readEdge(context, service.ceiling.maxRequestsPerSecond);
    if (settings === undefined) return undefined;
    if (env.region === undefined) {
      throw new SettingsError('edge=true needs the target Region: set AWS_REGION or use a profile that names one');
    }
    // In us-east-1 the web ACL is made in the service's stack (edge.ts); elsewhere in a stack of its own there.
    const waf =
      env.region === EDGE_WAF_STACK.region
        ? undefined
        : new EdgeWafStack(app, `${id}${EDGE_WAF_STACK.suffix}`, {
            env: { ...env, region: EDGE_WAF_STACK.region },
            settings,
            alarmEmail: service.alarms.email,
          });
    return {
      stackProps: { env, ...(waf && { crossRegionReferences: true }) },
      front: (scope, { alias, paths, methods, settings: { corsOrigins, customDomain } }) =>
        new Edge(scope, 'Edge', {
          alias,
          settings,
          webAclArn: waf?.webAcl.attrArn,
          paths,
          methods,
          corsOrigins,
          customDomain,
        }),
    };
  },
};
