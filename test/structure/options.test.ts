// Options are built on the service, never in it (infra/options.ts): no product file outside an option's
// folder imports that folder, so removing an option never edits the product's code. The product is
// every source file outside lab/, test/ and docs/.

import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph, sourceFiles } from '../helpers/import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const NOT_PRODUCT = ['lab/', 'test/', 'docs/'];
/** The folders infra/options.ts finds options in: those with an option.ts. */
const OPTION_FOLDERS = readdirSync(new URL('../../infra/', import.meta.url), { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('/option.ts'))
  .map((file) => `infra/${file.slice(0, -'option.ts'.length)}`);

it.each(OPTION_FOLDERS)('no product file outside %s imports it', (folder) => {
  const files = sourceFiles(REPO);
  expect(files.filter((file) => file.startsWith(folder)).length).toBeGreaterThan(0);
  const importing = [...importGraph(REPO, files)]
    .filter(([file]) => !file.startsWith(folder) && !NOT_PRODUCT.some((room) => file.startsWith(room)))
    .filter(([, targets]) => targets.some((target) => target.startsWith(folder)))
    .map(([file]) => file);
  expect(importing).toEqual([]);
});
