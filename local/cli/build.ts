// `npm run build -- [DIR]`: the one build of the bundle (scripts/build.ts), through the CLIs' shell.

import { BUNDLE_FILE, buildHandler } from '../../scripts/build.ts';
import { UsageError } from './args.ts';
import { runCli } from './shell.ts';

const DEFAULT_OUT = 'dist/list-plants';
const USAGE = `Usage: npm run build -- [DIR]

  Builds the function's bundle, the one that deploys, into DIR/${BUNDLE_FILE} (default ${DEFAULT_OUT}).
  npx cdk synth and deploy, npm start and the tests build it themselves.`;

await runCli({ usage: USAGE, options: {}, positionals: true }, async ({ positionals }) => {
  const [outdir = DEFAULT_OUT, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`Give one folder, not ${positionals.length}`);
  await buildHandler(outdir);
  console.log(`Built ${outdir}/${BUNDLE_FILE}`);
});
