// The budget as an option on the service (infra/options.ts): with -c monthlyBudgetUsd, a cost budget in
// the service's stack.

import type { ServiceOption } from '../options.ts';
import { BUDGET_CONTEXT_KEYS, monthlyBudget, readBudget } from './budget.ts';

export const option: ServiceOption = {
  contextKeys: BUDGET_CONTEXT_KEYS,
  apply(_app, _id, _env, context) {
    const settings = readBudget(context);
    return settings && { extend: (scope) => void monthlyBudget(scope, settings) };
  },
};
