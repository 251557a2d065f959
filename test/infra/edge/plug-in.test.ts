// Where the opt-in edge plugs in: the modules outside its two folders that import them, which are
// the lines docs/edge.md ("Removing the edge") lists. A new importer is a new place removal must touch.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph, sourceFiles } from '../../helpers/import-graph.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const EDGE_FOLDERS = ['infra/edge/', 'handlers/lib/edge/'];
const inEdge = (file: string) => EDGE_FOLDERS.some((folder) => file.startsWith(folder));

it('is imported outside its folders only by the two lists of options, and by the scale model', () => {
  const files = sourceFiles(REPO).filter((file) => !file.startsWith('test/'));
  const importers = [...importGraph(REPO, files)]
    .filter(([file, targets]) => !inEdge(file) && targets.some(inEdge))
    .map(([file]) => file);
  expect(importers.sort()).toEqual([
    // The scale model's figure behind the edge (its default per-token limit): bench/ reads the
    // edge's settings without CDK, which the stack's list of options loads.
    'bench/scale/scale-scenarios.ts',
    'handlers/lib/options.ts',
    'infra/options.ts',
  ]);
});
