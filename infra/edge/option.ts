// The opt-in edge as one of the stack's options (infra/options.ts): its context keys and settings,
// the us-east-1 stack its web ACL needs beside the service's elsewhere, and CloudFront in the HTTP
// API's place.

import { OPERATIONS } from '../../handlers/lib/operations.ts';
import { SettingsError } from '../context-values.ts';
import type { StackOption } from '../stack-option.ts';
import { Edge } from './edge.ts';
import { EDGE_CONTEXT_KEYS, type EdgeSettings, REMOVED_EDGE_KEYS, readEdge } from './settings.ts';
import { EDGE_WAF_REGION, EdgeWafStack } from './waf.ts';

/** The web ACL's stack, named after the service's: PlantStoreEdgeWaf, PlantStore-devEdgeWaf. */
const WAF_STACK = { suffix: 'EdgeWaf', region: EDGE_WAF_REGION };

/** Handoff: the web ACL's ARN, from its stack in us-east-1 when the service's is elsewhere. */
export const EDGE: StackOption<EdgeSettings, string> = {
  contextKeys: EDGE_CONTEXT_KEYS,
  removedKeys: REMOVED_EDGE_KEYS,
  read: (context, ceiling) => readEdge(context, ceiling.maxRequestsPerSecond),
  besideStacks: [WAF_STACK],

  // The stacks need their Region at synth (a cross-region reference is resolved then): the CLI's,
  // from the profile or AWS_REGION, unless `env` says otherwise.
  addStacks(app, id, env, settings) {
    const { region } = env;
    if (region === undefined) {
      throw new SettingsError('edge=true needs the target Region: set AWS_REGION or use a profile that names one');
    }
    if (region === EDGE_WAF_REGION) return { props: { env }, handoff: undefined };
    const waf = new EdgeWafStack(app, `${id}${WAF_STACK.suffix}`, {
      env: { ...env, region: WAF_STACK.region },
      settings,
    });
    return { props: { env, crossRegionReferences: true }, handoff: waf.webAcl.attrArn };
  },

  front: (scope, { alias, corsOrigins, customDomain }, settings, webAclArn) =>
    new Edge(scope, 'Edge', {
      alias,
      settings,
      webAclArn,
      paths: OPERATIONS.map(({ path }) => path),
      corsOrigins,
      customDomain,
    }),
};
