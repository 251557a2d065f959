// Which version of a Python command-line tool a folder on PATH holds, read from the package
// metadata of the interpreter that runs it (moto_server has no --version; cfn-lint's takes seconds).

import { execFile } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The first `name` in the folders of `path` (a PATH-style list), or undefined. */
export function findCommand(name: string, path = process.env.PATH ?? ''): string | undefined {
  return path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((file) => existsSync(file));
}

/** The version of the distribution `dist` behind the command at `file`, or undefined. */
export async function installedVersion(file: string, dist: string): Promise<string | undefined> {
  try {
    // No time limit: Python starting on a busy machine takes what it takes, and a limit met would be
    // taken for "not installed" and start a pip install.
    const { stdout } = await run(interpreterOf(file), [
      '-c',
      'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))',
      dist,
    ]);
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * The Python that runs a console script: its shebang (pip's, pipx's, a venv's), or, for a shell
 * wrapper such as a pyenv shim, the python3 beside it, which the same wrapper resolves.
 */
export function interpreterOf(file: string): string {
  const real = realpathSync(file);
  const head = firstBytes(real);
  // pip writes `#!/bin/sh` + `'''exec' "/long/path/python" "$0" "$@"` when the path is too long.
  const shebang = head.split('\n')[0] ?? '';
  const python =
    /^'''exec' "([^"]+)"/m.exec(head)?.[1] ?? /^#!\s*(?:\S*\/env\s+)?(\S*python[\d.]*)\s*$/.exec(shebang)?.[1];
  if (python) return python;
  const beside = join(dirname(real), 'python3');
  return existsSync(beside) ? beside : 'python3';
}

function firstBytes(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(512);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    closeSync(fd);
  }
}
