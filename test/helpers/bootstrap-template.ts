// The CDK CLI's own bootstrap template (the one `npx cdk bootstrap` deploys), its roles' documents
// resolved for one account and qualifier, as the IAM evaluator takes them.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { ACCOUNT, REGION } from './iam.ts';

const cli = dirname(createRequire(import.meta.url).resolve('aws-cdk/package.json'));
const TEMPLATE = parse(readFileSync(join(cli, 'lib/api/bootstrap/bootstrap-template.yaml'), 'utf8'));
const NO_VALUE = Symbol('AWS::NoValue');

/** A bootstrap role (`DeploymentActionRole`, `LookupRole`…) as `cdk bootstrap --qualifier` makes it, without trusted accounts. */
export function bootstrapRole(logicalId: string, qualifier: string) {
  const values: Record<string, string> = {
    'AWS::AccountId': ACCOUNT,
    'AWS::Partition': 'aws',
    'AWS::Region': REGION,
    Qualifier: qualifier,
  };
  const walk = (each: unknown): unknown => {
    if (Array.isArray(each)) return each.map(walk).filter((item) => item !== NO_VALUE);
    if (each === null || typeof each !== 'object') return each;
    const object = each as Record<string, unknown>;
    if ('Ref' in object)
      return object.Ref === 'AWS::NoValue' ? NO_VALUE : (values[object.Ref as string] ?? `<${object.Ref}>`);
    // Every condition of the template is false for a plain `cdk bootstrap` (no trusted accounts).
    if ('Fn::If' in object) return walk((object['Fn::If'] as unknown[])[2]);
    if ('Fn::Sub' in object) {
      return (object['Fn::Sub'] as string).replace(/\$\{([\w:]+)\}/g, (_, name: string) => values[name] ?? `<${name}>`);
    }
    const entries = Object.entries(object).map(([key, inner]) => [key, walk(inner)] as const);
    return Object.fromEntries(entries.filter(([, inner]) => inner !== NO_VALUE));
  };
  const role = walk(TEMPLATE.Resources[logicalId]) as {
    Properties: { RoleName: string; AssumeRolePolicyDocument: unknown };
  };
  return {
    arn: `arn:aws:iam::${ACCOUNT}:role/${role.Properties.RoleName}`,
    trust: role.Properties.AssumeRolePolicyDocument,
  };
}
