// The reference client's types are what openapi.yaml generates: a stale file fails the suite.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { removeTempDirs, runNpm, tempDir } from '../helpers/local-server.ts';

afterAll(() => removeTempDirs());

describe('client/api-types.ts', () => {
  it('is what openapi-typescript generates from openapi.yaml now', async () => {
    const result = await runNpm('client:types', ['--check']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('is reported stale, with the command that regenerates it, when it differs', async () => {
    const stale = join(tempDir('types'), 'api-types.ts');
    writeFileSync(stale, '// from an older openapi.yaml\n');
    const result = await runNpm('client:types', ['--check', '--out', stale]);
    expect(result.stderr.trim()).toBe(`${stale} is not what openapi.yaml generates: run npm run client:types`);
    expect(result.code).toBe(1);
  });
});
