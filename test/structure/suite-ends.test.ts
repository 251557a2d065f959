// A run whose prerequisites are missing ends by itself, saying what to do: jest is run as `npm test`
// runs it, on test/handlers/list-plants/moto.test.ts, with the Python checkers taken away or broken.
// Ending is what is asserted, not how soon: a run that hangs meets this test's own timeout, and the
// run it started is killed then.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { findCommand, interpreterOf } from '../checkers/installed.ts';
import { pinnedCheckers } from '../checkers/provision.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
/** Runs still going: a hanging one is killed once its test has timed out. */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-ends-'));
  dirs.push(dir);
  return dir;
}

interface Run {
  code: number | null;
  output: string;
}

/** Jest on test/handlers/list-plants/moto.test.ts with `path` as the whole PATH and the checkers' venv in a new folder. */
function runJest(path: string): Promise<Run> {
  const jest = ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js'];
  const child = spawn(process.execPath, [...jest, '--maxWorkers=1', '--ci', 'test/handlers/list-plants/moto.test.ts'], {
    cwd: REPO,
    env: { ...process.env, PATH: path, PLANT_STORE_CHECKERS_VENV: join(emptyDir(), 'venv'), NO_COLOR: '1' },
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve({ code, output });
    }),
  );
}

describe('a test run with its Python checkers unavailable', () => {
  it('stops with one line per checker saying what to install when neither they nor python3 are on PATH', async () => {
    const run = await runJest(emptyDir());

    expect(run.code).not.toBe(0);
    for (const { command, requirement } of pinnedCheckers()) {
      const hints = run.output.split('\n').filter((line) => line.startsWith(`${command}: `));
      expect(hints).toEqual([expect.stringContaining(`needs ${requirement} (not on PATH)`)]);
      expect(hints[0]).toContain('install Python 3');
    }
  });

  it('ends the test file, instead of hanging, when moto_server dies as it starts', async () => {
    // Ahead of the real one on PATH: a moto_server of the pinned version (it runs in moto's own
    // Python) that exits at once.
    const bin = emptyDir();
    const motoPython = await realPython(interpreterOf(findCommand('moto_server') ?? 'moto_server'));
    const fake = join(bin, 'moto_server');
    writeFileSync(fake, `#!${motoPython}\nimport sys\nsys.exit("moto_server: address already in use")\n`, {
      mode: 0o755,
    });

    const run = await runJest(`${bin}${delimiter}${process.env.PATH}`);

    expect(run.code).toBe(1);
    expect(run.output).toContain('moto_server exited with code 1: moto_server: address already in use');
    expect(run.output).not.toContain('did not exit');
  });
});

/** The interpreter's own executable, not a wrapper such as a pyenv shim (a shebang can't name one everywhere). */
async function realPython(python: string): Promise<string> {
  const { stdout } = await promisify(execFile)(python, ['-c', 'import sys; print(sys.executable)']);
  return stdout.trim();
}
