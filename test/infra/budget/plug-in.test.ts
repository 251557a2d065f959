// Where the optional budget plugs in: only the stack's list of options imports its folder, so
// removing it is deleting infra/budget/ (and this folder) and its line in infra/options.ts.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph, sourceFiles } from '../../helpers/import-graph.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const inBudget = (file: string) => file.startsWith('infra/budget/');

it('is imported outside its folder only by the list of options', () => {
  const files = sourceFiles(REPO).filter((file) => !file.startsWith('test/'));
  const importers = [...importGraph(REPO, files)]
    .filter(([file, targets]) => !inBudget(file) && targets.some(inBudget))
    .map(([file]) => file);
  expect(importers).toEqual(['infra/options.ts']);
});
