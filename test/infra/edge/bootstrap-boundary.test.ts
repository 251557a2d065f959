// Behind the edge (-c edge=true), with the boundary the pipeline names: every permission the stack
// gives its own roles stays within it (test/helpers/boundary.ts).

import { expect, it } from '@jest/globals';
import { PERMISSIONS_BOUNDARY_KEY } from '../../../infra/deploy-access/bootstrap/app-boundary.ts';
import { boundaryName } from '../../../infra/deploy-access/bootstrap/policies.ts';
import { boundaryDecisions } from '../../helpers/boundary.ts';
import { synth } from '../../helpers/cdk.ts';
import { ACCOUNT, REGION } from '../../helpers/iam.ts';

it("leaves every permission the stack gives its own roles within the environment's boundary", async () => {
  const { template } = await synth(
    { env: 'dev', edge: 'true', [PERMISSIONS_BOUNDARY_KEY]: boundaryName('dev') },
    { env: { account: ACCOUNT, region: REGION } },
  );
  const decisions = await boundaryDecisions(template, 'PlantStore-dev', 'dev');
  expect(decisions.map(({ action }) => action)).toEqual(
    expect.arrayContaining(['dynamodb:Query', 'logs:PutLogEvents']),
  );
  for (const each of decisions) expect(each).toEqual({ ...each, decision: 'Allowed' });
});
