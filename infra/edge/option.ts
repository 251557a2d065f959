// The edge as an option on the service (infra/options.ts): its settings, its web ACL's stack beside
// the service's outside us-east-1, and CloudFront + WAF as the service's front.

import type { ServiceOption } from '../options.ts';
import { SettingsError } from '../settings.ts';
import { Edge } from './edge.ts';
import { EDGE_CONTEXT_KEYS, readEdge } from './settings.ts';
import { EDGE_WAF_STACK, EdgeWafStack } from './waf.ts';

export const option: ServiceOption = {
  contextKeys: EDGE_CONTEXT_KEYS,
  besideStacks: [EDGE_WAF_STACK],
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
