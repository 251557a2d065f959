// Each of the function's environment variables is named in one module outside the tests,
// handlers/lib/environment.ts (an option's in its own folder, so that deleting the folder
// deletes the name): everything else writes and reads it through ENV or the writer, so a
// rename is a compile error rather than a search. Prose (comments, help and error text) may
// mention a name; a quoted name, an object key or a property access is a second home.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { ENV } from '../../handlers/lib/environment.ts';
import { sourceFiles } from '../helpers/import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const HOME = 'handlers/lib/environment.ts';
/** An opt-in option's variable lives in its own folder: handlers/lib/<option>/environment.ts. */
const OPTION_HOME = /^handlers\/lib\/[\w-]+\/environment\.ts$/;

/** Lines of code, comment lines left out. */
const codeLines = (text: string) => text.split('\n').filter((line) => !/^\s*(\/\/|\/?\*)/.test(line));

/** Whether `line` names `name` as code does: quoted whole, as an object key, or as a property. */
function namesIt(line: string, name: string): boolean {
  return (
    new RegExp(`(['"\`])${name}\\1`).test(line) ||
    new RegExp(`(^|[{,(\\s])${name}\\??\\s*:`).test(line) ||
    new RegExp(`\\.${name}\\b`).test(line)
  );
}

describe('the function’s environment variable names', () => {
  const files = sourceFiles(REPO).filter((file) => !file.startsWith('test/'));
  const code = new Map(files.map((file) => [file, codeLines(readFileSync(join(REPO, file), 'utf8'))]));

  it.each(Object.values(ENV))('%s is named in one module', (name) => {
    const homes = files.filter((file) => code.get(file)?.some((line) => namesIt(line, name)));
    expect(homes).toHaveLength(1);
    expect(homes[0] === HOME || OPTION_HOME.test(homes[0] ?? '')).toBe(true);
  });

  it('are told apart from prose', () => {
    for (const line of [
      "required(env, 'AUTH_ISSUER')",
      '  AUTH_ISSUER: issuer,',
      'env.AUTH_ISSUER?.trim()',
      '{ AUTH_ISSUER: x }',
    ]) {
      expect(namesIt(line, 'AUTH_ISSUER')).toBe(true);
    }
    for (const line of [
      "'accepts tokens from there (AUTH_ISSUER)'",
      "'set AUTH_ISSUER=https://… first'",
      'env[ENV.issuer]',
    ]) {
      expect(namesIt(line, 'AUTH_ISSUER')).toBe(false);
    }
  });
});
