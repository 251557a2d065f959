// The optional budget alarm (-c monthlyBudgetUsd): read from context with the alarm address it
// mails, refused without one, and in the template an AWS Budgets cost budget with its notices.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { readSettings } from '../../../infra/settings.ts';
import { STACK, type Synthesized, synth } from '../../helpers/cdk.ts';

const from = (context: Record<string, unknown>) => readSettings((key) => context[key], Object.keys(context));
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
});
