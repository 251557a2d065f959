// Where the opt-in edge plugs in: the modules outside its two folders that import them, which are
// the lines docs/edge.md ("Removing the edge") lists. A new importer is a new place removal must touch.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph, sourceFiles } from '../../helpers/import-graph.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const EDGE_FOLDERS = ['infra/edge/', 'handlers/lib/edge/'];
const inEdge = (file: string) => EDGE_FOLDERS.some((folder) => file.startsWith(folder));

it('is imported outside its folders only by the stack, the app’s stacks, the settings, the context keys, the access stack’s Region and the handler', () => {
  const files = sourceFiles(REPO).filter((file) => !file.startsWith('test/'));
  const importers = [...importGraph(REPO, files)]
    .filter(([file, targets]) => !inEdge(file) && targets.some(inEdge))
    .map(([file]) => file);
  expect(importers.sort()).toEqual([
    'handlers/list-plants.ts',
    'infra/context-keys.ts',
    'infra/deploy-role-grants.ts',
    'infra/plant-store-stack.ts',
    'infra/settings.ts',
    'infra/stacks.ts',
  ]);
});
