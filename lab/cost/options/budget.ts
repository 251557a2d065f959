// What the budget (-c monthlyBudgetUsd=N) costs, as docs/budget.md quotes it: nothing per request; free as one
// of the account's first two budgets, else a price a day.

import { money } from '../../report/doc-figures.ts';
import { cents } from '../money.ts';
import type { OptionCost } from '../options.ts';
import type { Price } from '../prices.ts';

export const BUDGET_PRICE: Price = {
  usd: 0.02,
  per: "day per active budget beyond the account's first two (free)",
  source: 'https://docs.aws.amazon.com/cost-management/latest/userguide/budgets-managing-costs.html',
  checked: '2026-11-25',
};

const section = () => ({ perDayUsd: BUDGET_PRICE.usd, perMonthUsd: cents(BUDGET_PRICE.usd * 30.4) });

export const cost: OptionCost<{ usd: number }, ReturnType<typeof section>> = {
  // As one of the account's first two budgets: free.
  monthly: () => ({ usd: 0 }),
  bill() {
    const priced = section();
    return {
      section: priced,
      flagPrice: {
        flag: 'monthlyBudgetUsd=N',
        perMillionUsd: 0,
        perMonthUsd: 0,
        fixed: `free as one of the account's first two budgets; else $${priced.perMonthUsd} a month`,
      },
    };
  },
  page: 'docs/budget.md',
  figures: (s) => [money(s.perDayUsd), money(s.perMonthUsd)],
  report: (s) => [
    '| the budget (monthlyBudgetUsd=N) | USD |',
    '|---|---|',
    `| beyond the account's first two budgets, a day / a month | ${s.perDayUsd.toFixed(2)} / ${s.perMonthUsd.toFixed(2)} |`,
  ],
};
