// Where the opt-in edge plugs in: the modules outside its folders that import them or ask for it by
// its context key, which are the places docs/edge.md ("Removing the edge") lists. A new one is a new
// place removal must touch.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph, sourceFiles } from '../../helpers/import-graph.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const EDGE_FOLDERS = ['infra/edge/', 'handlers/lib/edge/', 'test/infra/edge/', 'test/handlers/lib/edge/'];
const inEdge = (file: string) => EDGE_FOLDERS.some((folder) => file.startsWith(folder));

it('is imported outside its folders only by the two lists of options', () => {
  const files = sourceFiles(REPO);
  const importers = [...importGraph(REPO, files)]
    .filter(([file, targets]) => !inEdge(file) && targets.some(inEdge))
    .map(([file]) => file);
  expect(importers.sort()).toEqual(['handlers/lib/options.ts', 'infra/options.ts']);
});

/** Code (not comments) that turns the edge on or names its stack. */
const NAMES_THE_EDGE = /\bedge: 'true'|EdgeWaf/;
const code = (text: string) => text.split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));

it('is turned on or its stack named, outside its folders, only by the deployed checks, the bootstrap policy and the lab', () => {
  const naming = sourceFiles(REPO)
    .filter((file) => !inEdge(file))
    .filter((file) => code(readFileSync(join(REPO, file), 'utf8')).some((line) => NAMES_THE_EDGE.test(line)));
  expect(naming.sort()).toEqual([
    // The lab prices the edge's monthly lines from its synthesized template.
    'lab/cost/monthly.ts',
    // deployed/: the post-deploy check of an unsigned call to the function URL, and the smoke
    // check's walk through the distribution and the web ACL stack's outputs.
    'test/deployed/live-check.test.ts',
    // The execution policy's grants on <stack name>EdgeWaf-* (infra/bootstrap/execution-policy.json).
    'test/infra/deploy-access-privilege.test.ts',
    'test/local/deployed-cli.test.ts',
  ]);
});
