// Where the optional budget is known outside its folders: exactly the places docs/layout.md lists
// under "The budget's places". A new one is a new place removal must touch, and the page must say so.

import { expect, it } from '@jest/globals';
import { placesKnowing, placesListed } from '../../helpers/option-places.ts';

const FOLDERS = ['infra/budget/', 'test/infra/budget/'];
/** Code that turns the budget on, reads it, builds it or grants its actions. */
const MARKER = /monthlyBudgetUsd|MonthlyBudget|monthlyBudget\(|budgets:|settings\.budget/;

it('is known outside its folders only where docs/layout.md says', () => {
  const known = placesKnowing(FOLDERS, MARKER);
  expect(known.length).toBeGreaterThan(0);
  expect(placesListed('docs/layout.md', "The budget's places", FOLDERS)).toEqual(known);
});
