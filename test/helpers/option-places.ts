// Where an opt-in option is known outside its own folders: the files that import them, or whose code
// (comments left out) names the option by one of its markers (a context key, a stack name, an IAM
// action). Each option's page lists these places; its test holds the list true. The lab is its own
// room (lab/README.md) and is left out.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importGraph, sourceFiles } from './import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const READ = /\.(ts|mts|mjs|js|json|ya?ml)$/;
const COMMENT = /^\s*(\/\/|\*|\/\*|#)/;

/** Files outside `folders` (and outside lab/) that import them or name `marker` in code. */
export function placesKnowing(folders: string[], marker: RegExp): string[] {
  const mine = (file: string) => folders.some((folder) => file.startsWith(folder));
  const outside = (file: string) => !mine(file) && !file.startsWith('lab/');
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  const files = listed
    .split('\n')
    .filter((file) => READ.test(file) && file !== 'package-lock.json' && outside(file))
    .filter((file) => existsSync(join(REPO, file)));
  const importing = [...importGraph(REPO, sourceFiles(REPO))]
    .filter(([file, targets]) => outside(file) && targets.some(mine))
    .map(([file]) => file);
  const naming = files.filter((file) =>
    readFileSync(join(REPO, file), 'utf8')
      .split('\n')
      .some((line) => !COMMENT.test(line) && marker.test(line)),
  );
  return [...new Set([...importing, ...naming])].sort();
}

/** The files a page's section (`##` or `###`) lists in backticks, outside the option's `folders`. */
export function placesListed(page: string, heading: string, folders: string[]): string[] {
  const text = readFileSync(join(REPO, page), 'utf8');
  const section = text.split(/^#{2,3} /m).find((part) => part.startsWith(heading)) ?? '';
  const paths = [...section.matchAll(/`([\w./-]+\.\w+)`/g)].map(([, path]) => path ?? '');
  const outside = paths.filter((path) => !folders.some((folder) => path.startsWith(folder)));
  return [...new Set(outside)].sort();
}
