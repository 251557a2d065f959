// The reference client's types, generated from openapi.yaml into client/api-types.ts.

import { readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const SPEC = new URL('../openapi.yaml', import.meta.url);
export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../client/api-types.ts', import.meta.url));
const HEADER = `// Generated from openapi.yaml by \`npm run client:types\` (openapi-typescript): do not edit.\n\n`;

// openapi-typescript 7 needs the TypeScript compiler API, which TypeScript 7 no longer ships: for its imports
// only, "typescript" is TypeScript 6 (openapi-ts/openapi-typescript#2841). package.json's override of its peer
// lets it install, this hook lets it run; drop both once openapi-typescript supports TypeScript 7.
registerHooks({
  resolve: (specifier, context, nextResolve) =>
    nextResolve(
      specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')
        ? '@typescript/typescript6'
        : specifier,
      context,
    ),
});
/** Writes the types to `out` (default client/api-types.ts); with `check`, `ok` says whether it is current. */
export async function clientTypes({ check = false, out }: { check?: boolean; out?: string | undefined }) {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const typesFile = out ?? CLIENT_TYPES_FILE;
  const shown = out ?? relative(process.cwd(), typesFile);
  const generated = HEADER + astToString(await openapiTS(SPEC)) + operationRoutes();
  let current: string | undefined;
  try {
    current = readFileSync(typesFile, 'utf8');
  } catch {
    current = undefined;
  }
  if (check) {
    return current === generated
      ? { ok: true, message: `${shown} matches openapi.yaml` }
      : { ok: false, message: `${shown} is not what openapi.yaml generates: run npm run client:types` };
  }
  writeFileSync(typesFile, generated);
  return { ok: true, message: `${current === generated ? 'Unchanged' : 'Wrote'} ${shown}` };
}

/** Types can't be read at run time: the client finds each operation's route in this value instead. */
function operationRoutes(): string {
  const spec = parse(readFileSync(SPEC, 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const routes = Object.fromEntries(
    Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.operationId !== undefined)
        .map(([method, operation]) => [operation.operationId, { method: method.toUpperCase(), path }]),
    ),
  );
  return `\n/** Each operation's route, by operationId. */\nexport const operationRoutes = ${JSON.stringify(routes, null, 4)} as const;\n`;
}
