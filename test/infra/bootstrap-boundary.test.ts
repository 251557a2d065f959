// `-c @aws-cdk/core:permissionsBoundary=NAME`, as the pipeline deploys: every role of the service's
// stack carries that boundary (which its environment's execution policy requires), and every
// resource its environment's tag (which other environments' policies refuse).

import { describe, expect, it } from '@jest/globals';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { boundaryFromCommandLine, PERMISSIONS_BOUNDARY_KEY } from '../../infra/bootstrap/app-boundary.ts';
import { boundaryName } from '../../infra/bootstrap/policies.ts';
import { ENVIRONMENT_TAG } from '../../infra/stack-environment.ts';
import { plantStoreStacks } from '../../infra/stacks.ts';

function synthesize(context: Record<string, string>) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  boundaryFromCommandLine(app);
  return Template.fromStack(plantStoreStacks(app, 'PlantStore-dev'));
}

describe('the boundary named on the command line', () => {
  const name = boundaryName('dev');
  const template = synthesize({ env: 'dev', [PERMISSIONS_BOUNDARY_KEY]: name });
  const roles = Object.values(template.findResources('AWS::IAM::Role'));

  it("bounds every role the stack creates by the environment's boundary", () => {
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) {
      expect(JSON.stringify(role.Properties.PermissionsBoundary)).toContain(`:policy/${name}"`);
    }
  });

  it('leaves roles unbounded without the flag, as a deploy by hand with a default bootstrap needs', () => {
    const plain = synthesize({ env: 'dev' });
    for (const role of Object.values(plain.findResources('AWS::IAM::Role'))) {
      expect(role.Properties.PermissionsBoundary).toBeUndefined();
    }
  });

  it("tags the table, the function and the user pool with the stack's environment", () => {
    const tagged = (type: string) =>
      Object.values(template.findResources(type)).map(({ Properties }) => JSON.stringify(Properties));
    for (const type of ['AWS::DynamoDB::Table', 'AWS::Lambda::Function']) {
      for (const resource of tagged(type)) expect(resource).toContain(`{"Key":"${ENVIRONMENT_TAG}","Value":"dev"}`);
    }
    for (const pool of tagged('AWS::Cognito::UserPool')) expect(pool).toContain(`"${ENVIRONMENT_TAG}":"dev"`);
  });
});
