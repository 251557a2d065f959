// Where the optional budget plugs in: only the stack's list of options imports its folder, so
// removing it is deleting infra/budget/ (and this folder) and its line in infra/options.ts, then the
// places below that still name its context key.

import { readFileSync } from 'node:fs';
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

it('is named by its context key outside its folders only by the bench and the deployed check', () => {
  const naming = sourceFiles(REPO)
    .filter((file) => !inBudget(file) && !file.startsWith('test/infra/budget/'))
    .filter((file) =>
      readFileSync(join(REPO, file), 'utf8')
        .split('\n')
        .some((line) => !/^\s*(\/\/|\*)/.test(line) && line.includes('monthlyBudgetUsd')),
    );
  expect(naming.sort()).toEqual([
    // The price of each flag (bench:bill) and the post-deploy check's budget case.
    'bench/cost/flag-prices.ts',
    'test/deployed/live-check.test.ts',
    // The execution policy's reach on every type the stack deploys, the budget's included.
    'test/infra/deploy-access/privilege.test.ts',
  ]);
});
