// The optional budget alarm (-c monthlyBudgetUsd): read from context with the alarm address it
// mails, refused without one, and in the template an AWS Budgets cost budget with its notices, which
// drift detection cannot check (its calls.json says so; the post-deploy check lists it as not checked).

import { beforeAll, describe, expect, it } from '@jest/globals';
import { option, readBudget } from '../../../infra/budget/option.ts';
import { DRIFT_READS } from '../../../infra/deploy-access/reads.ts';
import { readSettings } from '../../../infra/settings.ts';
import { STACK, type Synthesized, synth } from '../../helpers/cdk.ts';
import { NOT_DRIFT_CHECKED, type ReplayedStack, typesWithoutDriftReads } from '../../helpers/cloudformation-drift.ts';

/** The service's settings with the budget's, as the app reads them (infra/stacks.ts). */
const from = (context: Record<string, unknown>) => {
  const read = (key: string) => context[key];
  return { ...readSettings(read, Object.keys(context), option.contextKeys), budget: readBudget(read) };
};
const ALARM_EMAIL = 'oncall@example.com';

describe('the budget settings', () => {
  it('are off by default', () => {
    expect(from({}).budget).toBeUndefined();
  });

  it('read command-line strings and cdk.json numbers alike, with the alarm address', () => {
    expect(from({ monthlyBudgetUsd: '250.50', alarmEmail: ALARM_EMAIL }).budget).toEqual({
      usd: 250.5,
      email: ALARM_EMAIL,
    });
    expect(from({ monthlyBudgetUsd: 40, alarmEmail: ALARM_EMAIL }).budget?.usd).toBe(40);
  });

  it.each([
    [{ monthlyBudgetUsd: '0', alarmEmail: 'a@example.com' }, 'monthlyBudgetUsd must be a number above 0'],
    [{ monthlyBudgetUsd: '$100', alarmEmail: 'a@example.com' }, 'monthlyBudgetUsd must be a number above 0'],
    [{ monthlyBudgetUsd: '100' }, 'monthlyBudgetUsd needs alarmEmail'],
  ])('refuses %j: %s', (context, message) => {
    expect(() => from(context)).toThrow(message);
  });
});

describe('the budget in the template', () => {
  let plain: Synthesized;
  let budgeted: Synthesized;
  beforeAll(async () => {
    plain = await synth();
    budgeted = await synth({ alarmEmail: ALARM_EMAIL, monthlyBudgetUsd: '300' });
  });

  it('is absent by default', () => {
    plain.template.resourceCountIs('AWS::Budgets::Budget', 0);
  });

  it('mails the alarm address when the month passes 80% and 100% of the budget, or is forecast to', () => {
    const budgets = Object.values(budgeted.template.findResources('AWS::Budgets::Budget'));
    expect(budgets).toHaveLength(1);
    const budget = budgets[0]?.Properties as {
      Budget: Record<string, unknown>;
      NotificationsWithSubscribers: { Notification: Record<string, unknown>; Subscribers: unknown[] }[];
    };
    // Named for the stack: the execution policy reaches this budget by its exact name and no other.
    expect(budget.Budget).toEqual({
      BudgetName: `${STACK}-MonthlyBudget`,
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: 300, Unit: 'USD' },
    });
    expect(
      budget.NotificationsWithSubscribers.map((n) => [n.Notification.NotificationType, n.Notification.Threshold]),
    ).toEqual([
      ['ACTUAL', 80],
      ['ACTUAL', 100],
      ['FORECASTED', 100],
    ]);
    for (const n of budget.NotificationsWithSubscribers) {
      expect(n.Subscribers).toEqual([{ SubscriptionType: 'EMAIL', Address: ALARM_EMAIL }]);
    }
  });

  it('is a type drift detection does not check, and the stack with it has none unread besides', async () => {
    const { template } = await synth({ env: 'dev', alarmEmail: ALARM_EMAIL, monthlyBudgetUsd: '50' });
    const types = Object.values((template.toJSON() as ReplayedStack['template']).Resources).map(({ Type }) => Type);
    expect(types).toContain('AWS::Budgets::Budget');
    expect(NOT_DRIFT_CHECKED).toContain('AWS::Budgets::Budget');
    expect(Object.keys(DRIFT_READS)).not.toContain('AWS::Budgets::Budget');
    expect(typesWithoutDriftReads(template.toJSON() as ReplayedStack['template'])).toEqual([]);
  });
});
