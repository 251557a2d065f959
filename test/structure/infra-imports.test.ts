// The stack loads from the function only its plain modules (names, the environment's writer, the
// operation table), never a middleware or a client: a synth must not pull the function's request
// path in, which biome's per-file rule (biome.json) can't see through a transitive import.

import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph, reachable, sourceFiles } from '../helpers/import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The function's modules `infra/` may load: data and names, no I/O, no middleware. */
const PLAIN = [
  'handlers/lib/edge/environment.ts',
  'handlers/lib/environment.ts',
  'handlers/lib/operations.ts',
  'handlers/lib/telemetry-names.ts',
];

it('loads from handlers/ only its plain modules, whatever infra/ file runs', () => {
  const files = sourceFiles(REPO);
  const graph = importGraph(REPO, files, { runtimeOnly: true });
  const loaded = new Set(
    files.filter((file) => file.startsWith('infra/')).flatMap((file) => [...reachable(graph, file)]),
  );
  const fromHandlers = [...loaded].filter((file) => file.startsWith('handlers/')).sort();
  expect(fromHandlers.length).toBeGreaterThan(0);
  expect(fromHandlers.filter((file) => !PLAIN.includes(file))).toEqual([]);
});
