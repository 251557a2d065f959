// Mistakes a newcomer makes on the command line of the CLIs (`npm start`, `token`, `plants`, `smoke`,
// `sam`), each answered before anything starts: a suggestion, a hint, or a plain sentence.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { npm, removeTempDirs, runNpm, tempDir } from '../helpers/local-server.ts';

// No server runs: every command here fails or answers before it would look for one.
const env = { PLANTS_LOCAL_DIR: tempDir('local') };
afterAll(removeTempDirs);
const PACKAGE: { scripts: Record<string, string> } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
);

describe('the local CLIs', () => {
  it('suggest the option a mistyped one was meant to be', async () => {
    const [token, plants] = await Promise.all([
      runNpm('token', ['alice', '--group', 'greenhouse'], env),
      runNpm('plants', ['add', 'bob', 'Fern', '--tags', 'fern'], env),
    ]);

    expect(token.code).toBe(2);
    expect(token.stderr).toMatch(/^Unknown option --group \(did you mean --groups\?\)$/m);
    expect(plants.code).toBe(2);
    expect(plants.stderr).toMatch(/^Unknown option --tags \(did you mean --tag\?\)$/m);
  });

  it('answer a bad option value in one line and exit 2, as any command-line mistake', async () => {
    const [ttl, port] = await Promise.all([
      runNpm('token', ['alice', '--ttl', 'abc'], env),
      runNpm('plants', ['list', 'alice', '--port', 'abc'], env),
    ]);
    expect(ttl).toMatchObject({ code: 2, stderr: 'Invalid duration "abc": use e.g. 90s, 15m, 12h or 7d\n' });
    expect(port).toMatchObject({ code: 2, stderr: '--port must be a number from 0 to 65535, got "abc"\n' });
  });

  it('say so when npm took an option written without "--" for itself', async () => {
    const [start, token] = await Promise.all([
      npm(['start', '--port', '4001'], env),
      npm(['run', 'token', 'alice', '--ttl', '5m'], env),
    ]);

    expect(start.code).toBe(2);
    expect(start.stderr).toContain(
      'npm took --port for itself: put options after "--", as in npm start -- --port <value>',
    );
    expect(token.code).toBe(2);
    expect(token.stderr).toContain(
      'npm took --ttl for itself: put options after "--", as in npm run token -- --ttl <value>',
    );
    expect(token.stdout).not.toMatch(/^ey/m);
  });

  it('print their usage on --help, npm start included, with the order in which the token CLI picks a port', async () => {
    const [start, token] = await Promise.all([runNpm('start', ['--help'], env), runNpm('token', ['--help'], env)]);

    expect(start.code).toBe(0);
    expect(start.stdout).toContain('Usage: npm start [-- --port N] [--host ADDRESS] [--data-dir DIR]');
    expect(start.stdout).toMatch(/--host ADDRESS +address to listen on \(default 127\.0\.0\.1/);
    expect(token.stdout).toMatch(/--port N +the local server to mint for \(default: PORT if set, else the running one/);
  });

  it('share one shell: --help prints the usage and exits 0 (never a --help folder or user), a mistake is one line on stderr and exits 2', async () => {
    // Every script package.json runs from local/ (build, client:types and sam:issuer included).
    const scripts = Object.entries(PACKAGE.scripts)
      .filter(([, command]) => /\bnode local\//.test(command))
      .map(([name]) => name);
    expect(scripts).toEqual(expect.arrayContaining(['start', 'build', 'client:types', 'sam:issuer']));

    const [helps, mistakes] = await Promise.all([
      Promise.all(scripts.map((script) => runNpm(script, ['--help'], env))),
      Promise.all(scripts.map((script) => runNpm(script, ['--bogus'], env))),
    ]);

    expect(helps.map(({ code, stdout }) => ({ code, stdout: stdout.split('\n')[0] }))).toEqual(
      scripts.map((script) => ({
        code: 0,
        stdout: expect.stringMatching(new RegExp(`^Usage: npm ${script === 'start' ? 'start' : `run ${script}`}`)),
      })),
    );
    expect(mistakes).toEqual(scripts.map(() => ({ code: 2, stdout: '', stderr: 'Unknown option --bogus\n' })));
    expect(existsSync(new URL('../../--help', import.meta.url))).toBe(false);
  });

  it('say in one line that an import file does not exist', async () => {
    const missing = join(tempDir('files'), 'plants.csv');

    const imported = await runNpm('plants', ['import', missing], env);

    expect(imported).toMatchObject({ code: 1, stderr: `Cannot read ${missing}: no such file\n` });
  });

  it('echo a hostile argument with its control characters escaped, in one line', async () => {
    const hostile = '\u001b[2J\u001b]0;owned\u0007\nDone';
    const [url, token] = await Promise.all([runNpm('smoke', ['--url', hostile], env), runNpm('token', [hostile], env)]);
    expect(url).toMatchObject({
      code: 2,
      stderr: '--url is not a URL: \\x1b[2J\\x1b]0;owned\\x07\\x0aDone\n',
    });
    // The token is minted (for the default port): the line that names its user is escaped.
    expect(token.code).toBe(0);
    expect(token.stderr).toMatch(/^Access token for \\x1b\[2J\\x1b\]0;owned\\x07\\x0aDone \(/);
    expect(token.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});
