// Where the opt-in edge is imported outside its folders: exactly the files docs/edge.md lists under
// "Files that import the edge". A new one is a new place removal must touch, and the page must say so.

import { expect, it } from '@jest/globals';
import { placesImporting, placesListed } from '../../helpers/option-places.ts';

const FOLDERS = ['infra/edge/', 'test/infra/edge/'];

it('is imported outside its folders only where docs/edge.md says', () => {
  expect(placesListed('docs/edge.md', 'Files that import the edge', FOLDERS)).toEqual(placesImporting(FOLDERS));
});
