// The app's stacks: the service's and, with the edge outside us-east-1, its web ACL's beside it.

import type { App, Environment } from 'aws-cdk-lib';
import { SettingsError } from './context-values.ts';
import { EDGE_WAF_STACK, EdgeWafStack } from './edge/waf.ts';
import { PlantStoreStack } from './plant-store-stack.ts';
import { readSettings } from './settings.ts';

/** Without the edge, one environment-agnostic stack; `env` (the CLI's account and Region) the edge's need. */
export function plantStoreStacks(
  app: App,
  id: string,
  env: Environment = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
): PlantStoreStack {
  const context = (key: string) => app.node.tryGetContext(key);
  const { edge, alarms } = readSettings(context, Object.keys(app.node.getAllContext()));
  if (edge === undefined) return new PlantStoreStack(app, id);
  if (env.region === undefined) {
    throw new SettingsError('edge=true needs the target Region: set AWS_REGION or use a profile that names one');
  }
  if (env.region === EDGE_WAF_STACK.region) return new PlantStoreStack(app, id, { env });
  const waf = new EdgeWafStack(app, `${id}${EDGE_WAF_STACK.suffix}`, {
    env: { ...env, region: EDGE_WAF_STACK.region },
    settings: edge,
    alarmEmail: alarms.email,
  });
  return new PlantStoreStack(app, id, { env, crossRegionReferences: true, webAclArn: waf.webAcl.attrArn });
}
