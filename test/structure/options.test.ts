// Options are built on the service, never in it (infra/options.ts): no file outside an option's folders
// (infra/<name>/ and its tests' test/infra/<name>/) imports them, tests included, so removing an option is
// deleting its folders and never edits another file's code. The lab is its own room (lab/README.md).

import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph, sourceFiles } from '../helpers/import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The folders infra/options.ts finds options in: those with an option.ts. */
const OPTIONS = readdirSync(new URL('../../infra/', import.meta.url), { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('/option.ts'))
  .map((file) => file.slice(0, -'/option.ts'.length));

it.each(OPTIONS)('no file outside infra/%s/ and its tests imports them', (name) => {
  const folders = [`infra/${name}/`, `test/infra/${name}/`];
  const mine = (file: string) => folders.some((folder) => file.startsWith(folder));
  const files = sourceFiles(REPO);
  expect(files.filter((file) => file.startsWith(`infra/${name}/`)).length).toBeGreaterThan(0);
  const importing = [...importGraph(REPO, files)]
    .filter(([file]) => !mine(file) && !file.startsWith('lab/'))
    .filter(([, targets]) => targets.some(mine))
    .map(([file]) => file);
  expect(importing).toEqual([]);
});
