// The budget as an option on the service (infra/options.ts): with -c monthlyBudgetUsd=N, a cost budget in the
// service's stack that mails the alarm address at 80% and 100% of actual, 100% forecast.

import { Stack } from 'aws-cdk-lib';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import type { Construct } from 'constructs';
import { type ContextReader, decimal, SettingsError, text } from '../context-values.ts';
import type { ServiceOption } from '../options.ts';

export interface BudgetSettings {
  usd: number;
  /** Where its notices go: the alarm address (-c alarmEmail), which it needs. */
  email: string;
}

export const BUDGET_CONTEXT_KEYS = ['monthlyBudgetUsd'] as const;

/** Undefined without `-c monthlyBudgetUsd`. */
export function readBudget(context: ContextReader): BudgetSettings | undefined {
  if (context('monthlyBudgetUsd') === undefined) return undefined;
  const usd = decimal(context, 'monthlyBudgetUsd', 0, { min: 0, max: 1_000_000 });
  const email = text(context, 'alarmEmail');
  if (email === undefined) {
    throw new SettingsError('monthlyBudgetUsd needs alarmEmail: the address the budget notices go to');
  }
  return { usd, email };
}

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
export function monthlyBudget(scope: Construct, { usd, email }: BudgetSettings): CfnBudget {
  return new CfnBudget(scope, 'MonthlyBudget', {
    budget: {
      // Named for the stack: each environment's execution policy reaches its own budget by name (bootstrap/).
      budgetName: `${Stack.of(scope).stackName}-MonthlyBudget`,
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

export const option: ServiceOption = {
  contextKeys: BUDGET_CONTEXT_KEYS,
  samples: [
    { name: 'monthlyBudgetUsd with alarmEmail', context: { monthlyBudgetUsd: '10', alarmEmail: 'ops@example.com' } },
  ],
  apply(_app, _id, _env, context) {
    const settings = readBudget(context);
    return settings && { extend: (scope) => void monthlyBudget(scope, settings) };
  },
};
