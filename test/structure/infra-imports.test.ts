// The stack loads from the function only its plain modules (names, the environment's writer, the
// operation table), never a middleware or a client: a synth must not pull the function's request
// path in, which biome's per-file rule (biome.json) can't see through a transitive import.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { parse } from 'jsonc-parser';
import { importGraph, reachable, sourceFiles } from '../helpers/import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The function's modules `infra/` may load (data and names, no I/O, no middleware): the exceptions
 * biome.json's rule for infra/ makes (`!` then a glob of handlers/), read from there; a `*` stands for a folder.
 */
const PLAIN = (() => {
  const biome = parse(readFileSync(new URL('../../biome.json', import.meta.url), 'utf8')) as {
    overrides: { includes: string[]; linter?: unknown }[];
  };
  const infra = biome.overrides.find(({ includes }) => includes.includes('infra/**'));
  const allowed = [...JSON.stringify(infra?.linter).matchAll(/"!\*\*\/(handlers\/[^"]+)"/g)].map(
    ([, path]) => path ?? '',
  );
  return allowed.map((path) => new RegExp(`^${path.replaceAll('.', '\\.').replaceAll('*', '[^/]+')}$`));
})();

it('loads from handlers/ only its plain modules, whatever infra/ file runs', () => {
  const files = sourceFiles(REPO);
  const graph = importGraph(REPO, files, { runtimeOnly: true });
  const loaded = new Set(
    files.filter((file) => file.startsWith('infra/')).flatMap((file) => [...reachable(graph, file)]),
  );
  const fromHandlers = [...loaded].filter((file) => file.startsWith('handlers/')).sort();
  expect(fromHandlers.length).toBeGreaterThan(0);
  expect(PLAIN.length).toBeGreaterThan(0);
  expect(fromHandlers.filter((file) => !PLAIN.some((allowed) => allowed.test(file)))).toEqual([]);
});
