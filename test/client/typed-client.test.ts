// openapi.yaml as a generated client uses it: openapi-typescript's types and openapi-fetch, with the
// idiom their documentation shows, type-checked by the project's TypeScript 7. A response that
// could be an empty string or no body (an HTML page, a status declared without content) keeps
// `data` possibly undefined after `if (error) throw`, and this fails.

import { execFile } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { removeTempDirs, runNpm, tempDir } from '../helpers/local-server.ts';

afterAll(() => removeTempDirs());

const REPO = new URL('../..', import.meta.url).pathname;
const IDIOM = `import createClient from 'openapi-fetch';
import type { paths } from './api-types.ts';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });
const { data, error } = await client.GET('/plants', { params: { query: { limit: 10 } } });
if (error) throw new Error(\`GET /plants: \${error.message}\`);
export const names: string[] = [...data].map((plant) => plant.name);
`;

describe('a client generated from openapi.yaml (openapi-typescript + openapi-fetch)', () => {
  it('compiles `const { data, error } = await client.GET(...); if (error) throw ...; [...data]`', async () => {
    const dir = tempDir('typed-client');
    const generated = await runNpm('client:types', ['--out', join(dir, 'api-types.ts')]);
    expect(generated.code).toBe(0);
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
    writeFileSync(join(dir, 'client.ts'), IDIOM);
    const compilerOptions = { strict: true, module: 'nodenext', target: 'es2024', types: [] };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true, allowImportingTsExtensions: true } }),
    );

    const tsc = (...args: string[]) =>
      promisify(execFile)(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), ...args]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    expect((await tsc('--version')).stdout).toMatch(/^Version 7\./);
    expect(await tsc('-p', dir)).toEqual({ code: 0, stdout: '' });
  });
});
