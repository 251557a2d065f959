// The one build of the Lambda bundle: for deploys (infra/handler-code.ts runs this file), `npm run build`,
// the local server, the lab and the tests.

import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import { envCredentials } from './env-credentials.ts';
import { requireBuiltins } from './require-builtins.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Lambda loads `index.mjs` and calls its `handler` export (handler setting `index.handler`); chunks beside it. */
export const BUNDLE_FILE = 'index.mjs';

// ESM bundles that contain CommonJS dependencies (parts of the AWS SDK) need a real `require`.
const REQUIRE_BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** The build's esbuild options, writing into `outdir`. */
export const buildOptions = (outdir: string) =>
  ({
    entryPoints: { index: `${root}handlers/list-plants.ts` },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    // The AWS SDK ships CommonJS (dist-cjs, `main`) and ES modules (dist-es, `module`): only the
    // ES modules can be tree-shaken, which drops ~200 KB of the SDK the function never calls.
    mainFields: ['module', 'main'],
    plugins: [requireBuiltins, envCredentials],
    // Code loaded with import() goes to chunks of its own, read from disk only when imported: the
    // Tracer (~120 KB with aws-xray-sdk-core) only when tracing is on, the SDK's event streams never.
    splitting: true,
    // The SDK's browser user-agent parser: its only importer is tree-shaken away, yet with splitting
    // esbuild still writes it out as a 34 KB chunk that nothing loads.
    external: ['bowser'],
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    legalComments: 'none',
    banner: { js: REQUIRE_BANNER },
    logLevel: 'warning',
  }) satisfies BuildOptions;

export async function buildHandler(outdir: string): Promise<void> {
  await build(buildOptions(outdir));
}

// The stack's asset bundling runs this file by path with the one folder to write (`npm run build`'s
// own CLI, with its usage, is local/cli/build.ts).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [outdir, ...extra] = process.argv.slice(2);
  if (outdir === undefined || outdir.startsWith('-') || extra.length > 0) {
    throw new Error(`Usage: node scripts/build.ts DIR (got ${JSON.stringify(process.argv.slice(2))})`);
  }
  await buildHandler(outdir);
}
