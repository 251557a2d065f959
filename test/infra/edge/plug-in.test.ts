// Where the opt-in edge is known outside its folders: exactly the places docs/edge.md lists under
// "Removing the edge". A new one is a new place removal must touch, and the page must say so.

import { expect, it } from '@jest/globals';
import { placesKnowing, placesListed } from '../../helpers/option-places.ts';

const FOLDERS = ['infra/edge/', 'test/infra/edge/'];
/**
 * Code that turns the edge on, reads its setting, names its stack, its folders, or what only it makes:
 * the function URL and the WAF metrics.
 */
const MARKER =
  /\bedge: 'true'|\bedge=true|EdgeWaf|\bbehindEdge\b|\bsettings\.edge\b|FunctionUrl|Lambda::Url|WAFV2|wafv2|lib\/edge\/|infra\/edge\/|\bedge: /;

it('is known outside its folders only where docs/edge.md says', () => {
  const known = placesKnowing(FOLDERS, MARKER);
  expect(known.length).toBeGreaterThan(0);
  expect(placesListed('docs/edge.md', 'Removing the edge', FOLDERS)).toEqual(known);
});
