// Drift detection cannot check a budget (no read handler in its resource schema): the post-deploy
// check lists it as not checked (docs/deploy.md, "Drift"), and every other type the option brings is read.

import { expect, it } from '@jest/globals';
import { DRIFT_READS } from '../../../infra/deploy-access/reads.ts';
import { synth } from '../../helpers/cdk.ts';
import { NOT_DRIFT_CHECKED, type ReplayedStack, typesWithoutDriftReads } from '../../helpers/cloudformation-drift.ts';

it('is a type drift detection does not check, and the stack with it has none unread besides', async () => {
  const { template } = await synth({ env: 'dev', alarmEmail: 'oncall@example.com', monthlyBudgetUsd: '50' });
  const types = Object.values((template.toJSON() as ReplayedStack['template']).Resources).map(({ Type }) => Type);

  expect(types).toContain('AWS::Budgets::Budget');
  expect(NOT_DRIFT_CHECKED).toContain('AWS::Budgets::Budget');
  expect(Object.keys(DRIFT_READS)).not.toContain('AWS::Budgets::Budget');
  expect(typesWithoutDriftReads(template.toJSON() as ReplayedStack['template'])).toEqual([]);
});
