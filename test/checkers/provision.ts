// The Python checkers (moto_server, cfn-lint) at the versions pinned in requirements.txt: from PATH
// when they match, else installed once into a project-local, git-ignored virtual environment.

import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findCommand, installedVersion } from './installed.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const REQUIREMENTS = fileURLToPath(new URL('./requirements.txt', import.meta.url));
/** The Requires-Python of both pinned releases, as major * 100 + minor. */
const PYTHONS = { from: 310, to: 314, text: '3.10–3.14' };
/** The command each pinned distribution provides. */
const COMMANDS: Record<string, string> = { moto: 'moto_server', 'cfn-lint': 'cfn-lint' };

export interface Checker {
  command: string;
  dist: string;
  /** The line of requirements.txt, as pip takes it. */
  requirement: string;
  version: string;
}

export function pinnedCheckers(): Checker[] {
  return readFileSync(REQUIREMENTS, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const [requirement, dist, version] = /^([\w.-]+)(?:\[[\w,]+\])?==(\S+)$/.exec(line.trim()) ?? [];
      const command = COMMANDS[dist ?? ''];
      return requirement && dist && version && command ? [{ command, dist, requirement, version }] : [];
    });
}

/** Where the checkers are installed when PATH doesn't have them; PLANT_STORE_CHECKERS_VENV moves it. */
export const venvDir = (env: NodeJS.ProcessEnv) =>
  resolve(env.PLANT_STORE_CHECKERS_VENV || join(REPO, '.local', 'python-checkers'));

/** Thrown with one line per checker that can't be had, saying what to do. */
export class CheckersMissingError extends Error {
  constructor(hints: string[]) {
    super(`The tests need these Python checkers:\n${hints.join('\n')}`);
    this.name = 'CheckersMissingError';
    this.stack = this.message; // the hints are the whole story; a stack trace would bury them
  }
}

/** Resolves with the PATH under which every checker runs at its pinned version. */
export async function ensureCheckers(path: string, venv: string): Promise<string> {
  const checkers = pinnedCheckers();
  const onPath = await versionsIn(path, checkers);
  if (checkers.every((c, i) => onPath[i] === c.version)) return path;

  const venvBin = join(venv, 'bin');
  let inVenv = await versionsIn(venvBin, checkers);
  let problem: Problem | undefined;
  if (!checkers.every((c, i) => inVenv[i] === c.version)) {
    problem = await installInto(venv, path, checkers);
    inVenv = await versionsIn(venvBin, checkers);
  }
  const hints = checkers.flatMap((c, i) => {
    if (inVenv[i] === c.version) return [];
    const found = onPath[i] ? `PATH has ${onPath[i]}` : 'not on PATH';
    const { why, todo } = problem ?? {
      why: `${shown(venv)} has ${inVenv[i] ?? 'none'} after pip install`,
      todo: `delete ${shown(venv)} and run again`,
    };
    return [
      `${c.command}: needs ${c.requirement} (${found}), and ${why}: ${todo}, or put it on PATH (pipx install '${c.requirement}')`,
    ];
  });
  if (hints.length > 0) throw new CheckersMissingError(hints);
  return `${venvBin}${delimiter}${path}`;
}

/** Why the checkers could not be installed, and what the user can do about it. */
interface Problem {
  why: string;
  todo: string;
}

/** The installed version of each checker found in `path`, in order; undefined where none. */
function versionsIn(path: string, checkers: Checker[]): Promise<(string | undefined)[]> {
  return Promise.all(
    checkers.map((c) => {
      const file = findCommand(c.command, path);
      return file && installedVersion(file, c.dist);
    }),
  );
}

/** Creates the venv and pip-installs requirements.txt; resolves with what went wrong, if anything. */
async function installInto(venv: string, path: string, checkers: Checker[]): Promise<Problem | undefined> {
  const python = findCommand('python3', path);
  if (!python) return { why: 'python3 is not on PATH to install it', todo: `install Python ${PYTHONS.text}` };
  const version = await run(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])']).then(
    ({ stdout }) => stdout.trim(),
    () => 'not runnable',
  );
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (!(major * 100 + minor >= PYTHONS.from && major * 100 + minor <= PYTHONS.to)) {
    return { why: `python3 is ${version}`, todo: `install Python ${PYTHONS.text}` };
  }
  process.stderr.write(
    `Installing ${checkers.map((c) => c.requirement).join(' ')} into ${shown(venv)} (first run only)\n`,
  );
  try {
    // Kept from an earlier run whose pip install failed: only pip needs to run again.
    if (!existsSync(join(venv, 'bin', 'python'))) await run(python, ['-m', 'venv', venv]);
  } catch {
    rmSync(venv, { recursive: true, force: true });
    return { why: 'python3 -m venv failed', todo: 'on Debian and Ubuntu, apt-get install python3-venv' };
  }
  const log = join(venv, 'pip.log');
  // One quick attempt: an unreachable index should fail the run in seconds, not minutes of retries
  // (pip's --timeout is for the network's silence); the install itself takes what the machine takes.
  const pip = ['-m', 'pip', 'install', '--disable-pip-version-check', '--retries', '0', '--timeout', '15'];
  try {
    const result = await run(join(venv, 'bin', 'python'), [...pip, '-r', REQUIREMENTS], {
      maxBuffer: 64 * 1024 * 1024,
    });
    writeFileSync(log, result.stdout + result.stderr);
    return undefined;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    writeFileSync(log, `${failed.stdout ?? ''}${failed.stderr ?? ''}`);
    return {
      why: `pip could not install it (${shown(log)} says why)`,
      todo: 'check the network or pip index settings',
    };
  }
}

/** A path inside the repository relative to it, any other as it is. */
const shown = (file: string) => (file.startsWith(REPO) ? relative(REPO, file) : file);
