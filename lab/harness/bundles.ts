// The lab's builds: the production build's own options (scripts/build.ts), changed by a variant
// (another entry, a module replaced, a plugin left out), built here, then measured as deployed.

import { readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';
import { buildOptions } from '../../scripts/build.ts';
import { benchDir, tmpDir } from '../config.ts';
import { withProgress } from './progress.ts';

export interface Bundle {
  /** The module a function process imports. */
  file: string;
  /** Code the runtime may load: every .mjs/.js in the artifact (chunks included), maps excluded. */
  bytes: number;
  /** The entry and the chunks it imports statically: what a cold start reads (import() excluded). */
  coldStartBytes: number;
  gzipBytes: number;
  sourceMapBytes: number;
  /** esbuild's account of the build: which source went into which output, and the imports between outputs. */
  metafile: Metafile;
}

/** The production build's options; a variant returns them changed. */
export type ProductionOptions = ReturnType<typeof buildOptions>;
export type BuildChange = (production: ProductionOptions) => BuildOptions;

/** The build with another entry file (a baseline handler). */
export const withEntry =
  (file: string): BuildChange =>
  (production) => ({ ...production, entryPoints: { index: file } });
/** The build with one more plugin, after the production build's own. */
export const withPlugin =
  (plugin: Plugin): BuildChange =>
  (production) => ({ ...production, plugins: [...production.plugins, plugin] });

export const ENTRIES = {
  trivial: `${benchDir}entries/trivial-handler.ts`,
  bare: `${benchDir}entries/bare-query.ts`,
} as const;

export async function buildBundle(name: string, change: BuildChange = (production) => production): Promise<Bundle> {
  const outdir = `${tmpDir}bundles/${name}`;
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({ ...change(buildOptions(outdir)), metafile: true });
  let entry = '';
  let bytes = 0;
  let gzipBytes = 0;
  let sourceMapBytes = 0;
  for (const output of Object.keys(metafile.outputs)) {
    const content = readFileSync(output);
    if (output.endsWith('.map')) sourceMapBytes += content.length;
    else {
      if (/^index\.[cm]?js$/.test(basename(output))) entry = output;
      bytes += content.length;
      gzipBytes += gzipSync(content, { level: 9 }).length;
    }
  }
  const file = `${outdir}/${basename(entry)}`;
  const coldStartBytes = coldStartOutputs(metafile, entry).reduce((sum, [, output]) => sum + output.bytes, 0);
  return { file, bytes, coldStartBytes, gzipBytes, sourceMapBytes, metafile };
}

type Output = Metafile['outputs'][string];

/** The entry output and every output it imports statically, once each (import() excluded), by path. */
export function coldStartOutputs(metafile: Metafile, entry: string, seen = new Set<string>()): [string, Output][] {
  const output = metafile.outputs[entry];
  if (seen.has(entry) || !output) return [];
  seen.add(entry);
  const imported = output.imports.filter((i) => i.kind === 'import-statement' && !i.external);
  return [[entry, output], ...imported.flatMap((i) => coldStartOutputs(metafile, i.path, seen))];
}

export async function buildAll() {
  const [handler, trivial, bare] = await withProgress('building', 3, 'bundles', (progress) => {
    const built = (bundle: Bundle) => {
      progress.increment();
      return bundle;
    };
    return Promise.all([
      buildBundle('handler').then(built),
      buildBundle('trivial', withEntry(ENTRIES.trivial)).then(built),
      buildBundle('bare', withEntry(ENTRIES.bare)).then(built),
    ]);
  });
  return { handler, trivial, bare };
}
