// The app's stacks: the service, and with the edge (-c edge=true) in a Region other than
// us-east-1, the small stack there that holds CloudFront's web ACL (WAF allows it nowhere else).

import type { App, Environment } from 'aws-cdk-lib';
import { flag, SettingsError } from './context-values.ts';
import { EDGE_WAF_REGION, EdgeWafStack } from './edge/waf.ts';
import { PlantStoreStack } from './plant-store-stack.ts';
import { readSettings } from './settings.ts';

/**
 * Without the edge, one environment-agnostic stack, as always. With it, the stacks need their
 * Region at synth (a cross-region reference is resolved then): the CLI's, from the profile or
 * AWS_REGION (CDK_DEFAULT_REGION), unless `env` says otherwise.
 */
export function plantStoreStacks(
  app: App,
  id: string,
  env: Environment = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
): PlantStoreStack {
  const context = (key: string) => app.node.tryGetContext(key);
  if (!flag(context, 'edge')) return new PlantStoreStack(app, id);
  const { region } = env;
  if (region === undefined) {
    throw new SettingsError('edge=true needs the target Region: set AWS_REGION or use a profile that names one');
  }
  if (region === EDGE_WAF_REGION) return new PlantStoreStack(app, id, { env });
  const { edge } = readSettings(context);
  const waf =
    edge && new EdgeWafStack(app, `${id}EdgeWaf`, { env: { ...env, region: EDGE_WAF_REGION }, settings: edge });
  return new PlantStoreStack(app, id, { env, crossRegionReferences: true, edgeWebAclArn: waf?.webAcl.attrArn });
}
