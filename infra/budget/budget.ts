// The optional budget alarm (`-c monthlyBudgetUsd=N`): an AWS Budgets cost budget that mails the
// alarm address when the month's actual cost passes 80% and 100%, and when the forecast passes 100%.

import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import type { Construct } from 'constructs';

/** Percent of the budget at which each notice goes out. */
export const BUDGET_NOTICES = [
  { type: 'ACTUAL', percent: 80 },
  { type: 'ACTUAL', percent: 100 },
  { type: 'FORECASTED', percent: 100 },
] as const;

/**
 * Budgets see the whole account's cost: a filter on the stack's tag only matches once someone
 * activates that tag as a cost allocation tag in the Billing console, and a budget that silently
 * sees $0 is worse than one that also counts a neighbour's spend.
 */
export function monthlyBudget(scope: Construct, usd: number, email: string): CfnBudget {
  return new CfnBudget(scope, 'MonthlyBudget', {
    budget: {
      budgetType: 'COST',
      timeUnit: 'MONTHLY',
      budgetLimit: { amount: usd, unit: 'USD' },
    },
    notificationsWithSubscribers: BUDGET_NOTICES.map(({ type, percent }) => ({
      notification: {
        notificationType: type,
        comparisonOperator: 'GREATER_THAN',
        threshold: percent,
        thresholdType: 'PERCENTAGE',
      },
      subscribers: [{ subscriptionType: 'EMAIL', address: email }],
    })),
  });
}
