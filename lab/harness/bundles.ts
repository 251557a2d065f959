// Builds the production bundle with the one build (scripts/build.ts), and the two baselines the
// same way, then measures what would be deployed.

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { type BuildHandlerOptions, buildHandler } from '../../scripts/build.ts';
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
}

export const ENTRIES = {
  handler: undefined,
  trivial: `${benchDir}entries/trivial-handler.ts`,
  bare: `${benchDir}entries/bare-query.ts`,
} as const;

export async function buildBundle(name: string, options: BuildHandlerOptions = {}): Promise<Bundle> {
  const outdir = `${tmpDir}bundles/${name}`;
  rmSync(outdir, { recursive: true, force: true });
  await buildHandler(outdir, options);
  let entry = '';
  let bytes = 0;
  let gzipBytes = 0;
  let sourceMapBytes = 0;
  for (const file of readdirSync(outdir)) {
    const content = readFileSync(`${outdir}/${file}`);
    if (file.endsWith('.map')) sourceMapBytes += content.length;
    else {
      if (/^index\.[cm]?js$/.test(file)) entry = `${outdir}/${file}`;
      bytes += content.length;
      gzipBytes += gzipSync(content, { level: 9 }).length;
    }
  }
  return {
    file: entry,
    bytes,
    coldStartBytes: staticBytes(outdir, entry.slice(outdir.length + 1)),
    gzipBytes,
    sourceMapBytes,
  };
}

/** Bytes of `file` and of everything it imports statically (`import"../x"`, `from"../x"`), once each. */
function staticBytes(outdir: string, file: string, seen = new Set<string>()): number {
  if (file === '' || seen.has(file)) return 0;
  seen.add(file);
  const code = readFileSync(`${outdir}/${file}`, 'utf8');
  let bytes = Buffer.byteLength(code);
  for (const [, imported] of code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+)["']/g)) {
    bytes += staticBytes(outdir, imported ?? '', seen);
  }
  return bytes;
}

export async function buildAll() {
  const [handler, trivial, bare] = await withProgress('building', 3, 'bundles', (progress) => {
    const built = (bundle: Bundle) => {
      progress.increment();
      return bundle;
    };
    return Promise.all([
      buildBundle('handler').then(built),
      buildBundle('trivial', { entry: ENTRIES.trivial }).then(built),
      buildBundle('bare', { entry: ENTRIES.bare }).then(built),
    ]);
  });
  return { handler, trivial, bare };
}
