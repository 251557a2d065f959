// `npm start` and the npm CLIs run as a user runs them: child processes, talked to over HTTP.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MAX_DYNAMODB_DEADLINE_MS, MAX_JWKS_TIMEOUT_MS } from '../../handlers/lib/environment.ts';

const REPO = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);

/** The caller's environment without settings that would point the local tools elsewhere. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([key]) => !/^(AUTH_|PLANTS_|DYNAMODB_|AWS_|PORT$)/.test(key));
  return { ...Object.fromEntries(inherited), NO_COLOR: '1', ...env };
}

export interface LocalServer {
  origin: string;
  port: number;
  /** PLANTS_LOCAL_DIR of this server: its issuer key, bundle and record. */
  localDir: string;
  /** Everything the server printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output once printed; rejects if the server exits first. */
  waitForOutput(pattern: RegExp): Promise<RegExpExecArray>;
  /** Sends the signal to npm, as a process manager would, and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Sends the signal to npm's whole process group, as a terminal does on Ctrl+C. */
  signalGroup(signal: NodeJS.Signals): void;
  /** Resolves with npm's exit code once it has exited. */
  exited: Promise<number | null>;
}

const tempDirs: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `plant-store-${prefix}-`));
  tempDirs.push(dir);
  return dir;
}

/** Removes every folder tempDir made in this test file; call once the servers have stopped. */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * The function's bounds in every test of `npm start`: the longest, as in every other healthy-path test
 * (test/helpers/function-env.ts), so a busy machine's slow request is answered, not refused by npm
 * start's 10 s DynamoDB deadline or the 1.5 s JWKS fetch timeout. A test may set its own.
 */
const UNHURRIED = {
  DYNAMODB_DEADLINE_MS: String(MAX_DYNAMODB_DEADLINE_MS),
  AUTH_JWKS_TIMEOUT_MS: String(MAX_JWKS_TIMEOUT_MS),
};

export async function startLocalServer(args: string[] = [], env: Record<string, string> = {}): Promise<LocalServer> {
  const localDir = env.PLANTS_LOCAL_DIR ?? tempDir('local');
  // Its own process group, as a terminal gives a command line: signalGroup reaches npm and node.
  const child = spawn('npm', ['start', '--', ...args], {
    cwd: REPO,
    env: cleanEnv({ PORT: '0', PLANTS_LOCAL_DIR: localDir, ...UNHURRIED, ...env }),
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Its output is complete once every pipe has closed, which may be after the exit.
  let closed = false;
  child.once('close', () => {
    closed = true;
  });
  // Ready once the banner is out, however long that takes on a busy machine; an exit ends the wait,
  // and a server that neither gets ready nor exits is the test's timeout to catch.
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const url = /API\s+(http:\/\/[^/\s]+:\d+)\/plants/.exec(output)?.[1];
      if (url && output.includes('Press Ctrl+C to stop.')) resolve(url);
    });
    void exited.then((code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    child.once('error', reject);
  }).catch(async (error) => {
    // Failed to start: the process may still be running, and would outlive the test file.
    await stopChild(child, exited, 'SIGTERM');
    throw error;
  });
  return {
    origin,
    port: Number(new URL(origin).port),
    localDir,
    output: () => output,
    waitForOutput: (pattern) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const match = pattern.exec(output);
          if (!match) return false;
          stopLooking();
          resolve(match);
          return true;
        };
        const ended = () => {
          stopLooking();
          reject(new Error(`The server ended without printing ${pattern}:\n${output}`));
        };
        const stopLooking = () => {
          child.stdout.off('data', look);
          child.stderr.off('data', look);
          child.off('close', ended);
        };
        // Listened to after the output's own listeners (above), so `output` already holds the chunk.
        child.stdout.on('data', look);
        child.stderr.on('data', look);
        child.once('close', ended);
        if (!look() && closed) ended();
      }),
    stop: (signal = 'SIGTERM') => stopChild(child, exited, signal),
    signalGroup: (signal) => {
      // Never -0: that would be the test runner's own group.
      if (!child.pid) throw new Error('npm start has no pid');
      process.kill(-child.pid, signal);
    },
    exited,
  };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>, signal: NodeJS.Signals) {
  if (child.exitCode !== null) return child.exitCode;
  child.kill(signal);
  return exited;
}

export interface NpmRun {
  code: number;
  stdout: string;
  stderr: string;
}

const SCRIPTS: Record<string, string> = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).scripts;

/**
 * `npm run -s <script> -- <args>` as npm would run it: the script's command line from package.json,
 * started with this Node, without npm's own start (most of a second each, and the CLI tests run
 * dozens). Tests about npm itself use `npm()`. Resolves whatever the exit code.
 */
export async function runNpm(script: string, args: string[], env: Record<string, string> = {}): Promise<NpmRun> {
  const command = /^(?:exec )?node (\S+)$/.exec(SCRIPTS[script] ?? '');
  if (!command?.[1]) throw new Error(`package.json's "${script}" is not "node <file>": run it with npm()`);
  return settled(run(process.execPath, [command[1], ...args], { cwd: REPO, env: cleanEnv(env) }));
}

/** npm with `args` as typed (say, without the `--` before a script's own options). */
export function npm(args: string[], env: Record<string, string> = {}): Promise<NpmRun> {
  return settled(run('npm', args, { cwd: REPO, env: cleanEnv(env) }));
}

async function settled(running: Promise<{ stdout: string; stderr: string }>): Promise<NpmRun> {
  try {
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A token from `npm run token` for the server's port and issuer key: the last line it prints. */
export async function tokenFor(server: LocalServer, user: string, ...options: string[]): Promise<string> {
  const result = await runNpm('token', [user, ...options], {
    PORT: String(server.port),
    PLANTS_LOCAL_DIR: server.localDir,
  });
  if (result.code !== 0) throw new Error(`npm run token failed: ${result.stderr}`);
  return result.stdout.trim().split('\n').at(-1) ?? '';
}
