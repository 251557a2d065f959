// Builds the production bundle with the one build (scripts/build.ts), and the two baselines the
// same way, then measures what would be deployed.

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { type BuildHandlerOptions, buildHandler } from '../scripts/build.ts';
import { benchDir, tmpDir } from './config.ts';

export interface Bundle {
  /** The module a function process imports. */
  file: string;
  /** Code the runtime may load: every .mjs/.js in the artifact (chunks included), maps excluded. */
  bytes: number;
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
  return { file: entry, bytes, gzipBytes, sourceMapBytes };
}

export async function buildAll() {
  const [handler, trivial, bare] = await Promise.all([
    buildBundle('handler'),
    buildBundle('trivial', { entry: ENTRIES.trivial }),
    buildBundle('bare', { entry: ENTRIES.bare }),
  ]);
  return { handler, trivial, bare };
}
