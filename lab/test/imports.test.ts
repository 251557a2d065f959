// The benchmark loads aws-cdk-lib only where it synthesizes the stack on purpose (the monthly
// price of the template's alarms and metrics, through test/helpers/synth.ts): the names it prices
// come from the function's plain modules, not from CDK construct files. It depends on the product, its test
// fixtures included (test/helpers/), never on a product test.

import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importersOf, importGraph, reachable, sourceFiles } from '../../test/helpers/import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SYNTH = 'test/helpers/synth.ts';

it('reaches aws-cdk-lib from lab/ only through the stack synthesis', () => {
  const files = sourceFiles(REPO);
  const cdk = new Set(importersOf(REPO, files, 'aws-cdk-lib'));
  expect(cdk).toContain(SYNTH);
  // The synthesis is the one door: with it closed, no bench file reaches CDK.
  const graph = importGraph(REPO, files);
  graph.set(SYNTH, []);
  const throughCdk = files
    .filter((file) => file.startsWith('lab/'))
    .filter((file) => [...reachable(graph, file)].some((reached) => cdk.has(reached) && reached !== SYNTH));
  expect(throughCdk).toEqual([]);
});

it('imports from test/ only its fixtures (test/helpers/), never a test', () => {
  const graph = importGraph(REPO, sourceFiles(REPO));
  const fromTests = [...graph]
    .filter(([file]) => file.startsWith('lab/'))
    .flatMap(([file, targets]) =>
      targets
        .filter((target) => target.startsWith('test/') && !target.startsWith('test/helpers/'))
        .map((target) => `${file} → ${target}`),
    );
  expect(fromTests).toEqual([]);
});
