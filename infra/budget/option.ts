// The optional budget alarm as one of the stack's options (infra/options.ts): -c monthlyBudgetUsd,
// mailed to the alarm address (-c alarmEmail), which it needs.

import { type ContextReader, decimal, SettingsError, text } from '../context-values.ts';
import type { StackOption } from '../stack-option.ts';
import { monthlyBudget } from './budget.ts';

export interface BudgetSettings {
  /** AWS Budgets monthly cost budget, in USD. */
  usd: number;
  /** Where its notices go: the alarm address. */
  email: string;
}

const USD = { min: 0, max: 1_000_000, inclusiveMin: false };

function readBudget(context: ContextReader): BudgetSettings | undefined {
  if (context('monthlyBudgetUsd') === undefined) return undefined;
  const usd = decimal(context, 'monthlyBudgetUsd', 0, USD);
  const email = text(context, 'alarmEmail');
  if (email === undefined) {
    throw new SettingsError('monthlyBudgetUsd needs alarmEmail: the address the budget notices go to');
  }
  return { usd, email };
}

export const BUDGET: StackOption<BudgetSettings> = {
  contextKeys: ['monthlyBudgetUsd'],
  removedKeys: {},
  read: readBudget,
  besideStacks: [],
  addToStack: (scope, { usd, email }) => monthlyBudget(scope, usd, email),
};
