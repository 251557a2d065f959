// `npm run client:types -- [--check] [--out FILE]`: the reference client's types from openapi.yaml.

import { clientTypes } from '../../scripts/client-types.ts';
import { runCli } from './shell.ts';

const USAGE = `Usage: npm run client:types -- [--check] [--out FILE]

  Generates client/api-types.ts from openapi.yaml (openapi-typescript).
  --check     write nothing; exit 1 when the file is not what openapi.yaml generates (npm test checks it)
  --out FILE  another file to write or check`;

const OPTIONS = { check: { type: 'boolean' }, out: { type: 'string' } } as const;

await runCli({ usage: USAGE, options: OPTIONS, positionals: false }, async ({ values }) => {
  const { ok, message } = await clientTypes(values);
  if (!ok) {
    console.error(message);
    process.exit(1);
  }
  console.log(message);
});
