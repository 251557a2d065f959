// The repository's files and the relative imports between them (static, type-only, re-exports and
// import()): what the structure tests walk. Biome finds cycles (noImportCycles).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SOURCE = /\.(ts|mts|mjs|js)$/;
// `from './x.ts'` (import, import type, export … from), `import './x.ts'` and `import('./x.ts')`.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** Every source file git would commit (tracked or not ignored), relative to `root`. */
export function sourceFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => SOURCE.test(file) && existsSync(join(root, file)))
    .sort();
}

// `import type …;` and `export type … from …;`: erased when the file runs, so nothing is loaded.
const TYPE_ONLY = /\b(?:import|export)\s+type\s[^;]*;/g;

/**
 * Each file's relative imports that resolve to a file in `files`; with `runtimeOnly`, only those
 * that load the target when the file runs (type-only imports left out).
 */
export function importGraph(root: string, files: string[], { runtimeOnly = false } = {}): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8');
    const text = runtimeOnly ? source.replace(TYPE_ONLY, '') : source;
    const targets = [...text.matchAll(RELATIVE_IMPORT)]
      .map((match) => relative(root, resolve(root, dirname(file), match[2] ?? '')))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The files among `files` that import `pkg` (or a path inside it) themselves. */
export function importersOf(root: string, files: string[], pkg: string): string[] {
  const direct = new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*\\(?\\s*)(['"])${pkg}(/[^'"]*)?\\1`);
  return files.filter((file) => direct.test(readFileSync(join(root, file), 'utf8')));
}

/** Every file `from` reaches through relative imports, itself included. */
export function reachable(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const target of graph.get(file) ?? []) visit(target);
  };
  visit(from);
  return seen;
}
