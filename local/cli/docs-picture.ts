// `npm run docs:picture -- [--check]`: docs/architecture.mmd copied into the README and
// docs/layout.md (scripts/architecture-picture.ts), through the CLIs' shell; --check exits 1 when a
// copy is stale.

import { architecturePicture } from '../../scripts/architecture-picture.ts';
import { runCli } from './shell.ts';

const USAGE = `Usage: npm run docs:picture -- [--check]

  Copies docs/architecture.mmd, the architecture picture's source, into README.md and docs/layout.md.
  --check     write nothing; exit 1 when a copy differs (npm test checks it)`;

const OPTIONS = { check: { type: 'boolean' } } as const;

await runCli({ usage: USAGE, options: OPTIONS, positionals: false }, ({ values }) => {
  const { ok, message } = architecturePicture(values);
  if (!ok) {
    console.error(message);
    process.exit(1);
  }
  console.log(message);
});
