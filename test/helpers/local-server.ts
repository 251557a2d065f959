// `npm start` and the npm CLIs run as a user runs them: child processes, talked to over HTTP.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

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
  /** Resolves with the first match of `pattern` in the output, waiting up to 5 s for it. */
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

export async function startLocalServer(args: string[] = [], env: Record<string, string> = {}): Promise<LocalServer> {
  const localDir = env.PLANTS_LOCAL_DIR ?? tempDir('local');
  // Its own process group, as a terminal gives a command line: signalGroup reaches npm and node.
  const child = spawn('npm', ['start', '--', ...args], {
    cwd: REPO,
    env: cleanEnv({ PORT: '0', PLANTS_LOCAL_DIR: localDir, ...env }),
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start was not ready in 20 s:\n${output}`)), 20_000);
    child.stdout.on('data', () => {
      const url = /API\s+(http:\/\/[^/\s]+:\d+)\/plants/.exec(output)?.[1];
      if (url && output.includes('Press Ctrl+C to stop.')) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  }).catch(async (error) => {
    // Not ready in time: the process may still be running, and would outlive the test file.
    await stopChild(child, exited, 'SIGTERM');
    throw error;
  });
  return {
    origin,
    port: Number(new URL(origin).port),
    localDir,
    output: () => output,
    waitForOutput: async (pattern) => {
      for (let waited = 0; waited < 5000; waited += 50) {
        const match = pattern.exec(output);
        if (match) return match;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`The server did not print ${pattern} in 5 s:\n${output}`);
    },
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
