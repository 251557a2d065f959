// Where the optional budget is imported outside its folders: exactly the files docs/layout.md lists under
// "The budget's imports". A new one is a new place removal must touch, and the page must say so.

import { expect, it } from '@jest/globals';
import { placesImporting, placesListed } from '../../helpers/option-places.ts';

const FOLDERS = ['infra/budget/', 'test/infra/budget/'];

it('is imported outside its folders only where docs/layout.md says', () => {
  expect(placesListed('docs/layout.md', "The budget's imports", FOLDERS)).toEqual(placesImporting(FOLDERS));
});
