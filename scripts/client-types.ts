// `npm run client:types [-- --check] [--out FILE]`: the reference client's types, generated from
// openapi.yaml by openapi-typescript into client/api-types.ts, with each operation's route as a value;
// --check exits 1 when the file is stale.

import { readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';

const SPEC = new URL('../openapi.yaml', import.meta.url);
const { values } = parseArgs({ options: { check: { type: 'boolean' }, out: { type: 'string' } } });
const typesFile = values.out ?? fileURLToPath(new URL('../client/api-types.ts', import.meta.url));
const shown = values.out ?? relative(process.cwd(), typesFile);
const HEADER = `// Generated from openapi.yaml by \`npm run client:types\` (openapi-typescript): do not edit.\n\n`;

// openapi-typescript 7 writes its output with the TypeScript compiler API, which TypeScript 7 (the
// project's compiler) no longer ships; for its imports only, "typescript" is TypeScript 6
// (openapi-ts/openapi-typescript#2841). package.json's override of its typescript peer is the
// install-time half: without it npm ci refuses TypeScript 7 (ERESOLVE), and an override to
// @typescript/typescript6 is refused too, so the override only lets it install and this hook is
// what lets it run. Drop both once openapi-typescript supports TypeScript 7.
registerHooks({
  resolve: (specifier, context, nextResolve) =>
    nextResolve(
      specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')
        ? '@typescript/typescript6'
        : specifier,
      context,
    ),
});
const { default: openapiTS, astToString } = await import('openapi-typescript');

const spec = parse(readFileSync(SPEC, 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
// Types can't be read at run time: the client finds each operation's route in this value instead.
const routes = Object.fromEntries(
  Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.operationId !== undefined)
      .map(([method, operation]) => [operation.operationId, { method: method.toUpperCase(), path }]),
  ),
);
const ROUTES = `
/** Each operation's route, by operationId. */
export const operationRoutes = ${JSON.stringify(routes, null, 4)} as const;
`;
const generated = HEADER + astToString(await openapiTS(SPEC)) + ROUTES;
const current = (() => {
  try {
    return readFileSync(typesFile, 'utf8');
  } catch {
    return undefined;
  }
})();

if (values.check) {
  if (current !== generated) {
    console.error(`${shown} is not what openapi.yaml generates: run npm run client:types`);
    process.exit(1);
  }
  console.log(`${shown} matches openapi.yaml`);
} else {
  writeFileSync(typesFile, generated);
  console.log(`${current === generated ? 'Unchanged' : 'Wrote'} ${shown}`);
}
