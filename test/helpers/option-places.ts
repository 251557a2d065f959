// Where an option is known outside its own folders: the files that import them. Each option's page
// lists these places; its test holds the list true. The lab is its own room (lab/README.md) and is
// left out.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importGraph, sourceFiles } from './import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Files outside `folders` (and outside lab/) that import them. */
export function placesImporting(folders: string[]): string[] {
  const mine = (file: string) => folders.some((folder) => file.startsWith(folder));
  const outside = (file: string) => !mine(file) && !file.startsWith('lab/');
  return [...importGraph(REPO, sourceFiles(REPO))]
    .filter(([file, targets]) => outside(file) && targets.some(mine))
    .map(([file]) => file)
    .sort();
}

/** The files a page's section (`##` or `###`) lists in backticks, outside the option's `folders`. */
export function placesListed(page: string, heading: string, folders: string[]): string[] {
  const text = readFileSync(join(REPO, page), 'utf8');
  const section = text.split(/^#{2,3} /m).find((part) => part.startsWith(heading)) ?? '';
  const paths = [...section.matchAll(/`([\w./-]+\.\w+)`/g)].map(([, path]) => path ?? '');
  const outside = paths.filter((path) => !folders.some((folder) => path.startsWith(folder)));
  return [...new Set(outside)].sort();
}
