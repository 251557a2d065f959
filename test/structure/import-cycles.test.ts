// No two files of the repository import each other, directly or around a circle: a cycle is a
// shared rule without a home of its own (docs/layout.md), and type-only imports count too.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from '@jest/globals';
import { importCycles, importGraph, sourceFiles } from '../helpers/import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const fixture = mkdtempSync(join(tmpdir(), 'plant-store-imports-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

function write(files: Record<string, string>): string[] {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(fixture, path)), { recursive: true });
    writeFileSync(join(fixture, path), text);
  }
  return Object.keys(files);
}

it('finds no import cycle among the repository’s source files', () => {
  const files = sourceFiles(REPO);
  expect(files).toEqual(expect.arrayContaining(['handlers/list-plants.ts', 'infra/app.ts', 'local/cli/start.ts']));
  expect(importCycles(importGraph(REPO, files))).toEqual([]);
});

it('finds cycles through type-only imports, re-exports and import(), and not between independent files', () => {
  const files = write({
    'a/options.ts': "import type { Shape } from './tokens.ts';\nexport const x = 1;\n",
    'a/tokens.ts': "import { x } from './options.ts';\nexport type Shape = 'a';\n",
    'b/one.ts': "export { two } from '../b/two.ts';\n",
    'b/two.ts': "export const two = () => import('./three.ts');\n",
    'b/three.ts': "import './one.ts';\n",
    'c/leaf.ts': "import { x } from '../a/options.ts';\n",
  });
  expect(importCycles(importGraph(fixture, files))).toEqual([
    ['a/options.ts', 'a/tokens.ts', 'a/options.ts'],
    ['b/one.ts', 'b/two.ts', 'b/three.ts', 'b/one.ts'],
  ]);
});
