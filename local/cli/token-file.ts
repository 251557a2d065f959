// A bearer token given by file (`--token-file FILE`, "-" for stdin), kept out of npm's and CI's logs.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OptionValueError } from '../server/options.ts';
import { UsageError } from './args.ts';

/** --token, or the contents of --token-file (of stdin for "-"), or undefined when neither is given. */
export function tokenGiven(token: string | undefined, file: string | undefined): string | undefined {
  if (file === undefined) return token;
  if (token !== undefined) throw new UsageError('Give --token or --token-file, not both');
  const path = file === '-' ? 0 : resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      `Cannot read --token-file ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  if (!text) throw new OptionValueError(`--token-file ${file} is empty: it should hold the token alone`);
  if (/\s/.test(text))
    throw new OptionValueError(`--token-file ${file} should hold one token alone, not several words`);
  return text;
}
