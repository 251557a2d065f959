// The service under load: a running one (LOAD_BASE_URL), or `npm start`'s server as a child process
// on a free loopback port; its tokens from `npm run token -- <user>`, its memory from /proc and,
// after forced garbage collection, through the inspector.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../../test/helpers/ports.ts';
import { inspectorUrl, type MemoryAfterGc, memoryAfterGc } from './inspector.ts';

const run = promisify(execFile);
/** The product's folder: `npm start` and `npm run token` are its commands, whatever folder the lab runs from. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Target {
  baseUrl: string;
  /** The environment to run `npm run token` with for this server. */
  env: NodeJS.ProcessEnv;
  /** Resident memory of the server's process tree in MB, when this run started it. */
  rssMb(): number | undefined;
  /** The server's memory after forced garbage collection, when this run started it. */
  memoryAfterGc(): Promise<MemoryAfterGc | undefined>;
  /** False when a server this run started has exited. */
  alive(): boolean;
  stop(): void;
}

export async function startTarget(env: NodeJS.ProcessEnv): Promise<Target> {
  if (env.LOAD_BASE_URL) {
    const baseUrl = env.LOAD_BASE_URL.replace(/\/+$/, '');
    return {
      baseUrl,
      env,
      rssMb: () => undefined,
      memoryAfterGc: async () => undefined,
      alive: () => true,
      stop: () => {},
    };
  }
  const port = await freePort();
  // Its own keys and data folder, so a developer's running `npm start` is left alone.
  const localDir = mkdtempSync(join(tmpdir(), 'plant-store-load-'));
  const ownEnv = { PLANTS_LOCAL_DIR: localDir, ...env, PORT: String(port) };
  // What `npm start` execs, with the inspector on a free loopback port to force GC through; in
  // its own process group, so stopping it stops it and nothing else.
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', 'local/cli/start.ts'], {
    cwd: ROOT,
    env: ownEnv,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    if (stderr.length < 10_000) stderr += chunk;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${baseUrl}/plants`, child);
  const inspector = inspectorUrl(stderr);
  if (!inspector) throw new Error(`the server printed no inspector URL: ${stderr}`);
  return {
    baseUrl,
    env: ownEnv,
    rssMb: () => treeRssKb(child.pid ?? 0) / 1024,
    memoryAfterGc: () => memoryAfterGc(inspector),
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: () => {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      if (ownEnv.PLANTS_LOCAL_DIR === localDir) rmSync(localDir, { recursive: true, force: true });
    },
  };
}

/** The token `npm run token -- <user>` prints as its last line, for the server on that port. */
export async function tokenFor(user: string, baseUrl: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (env[`LOAD_TOKEN_${user.toUpperCase()}`]) return env[`LOAD_TOKEN_${user.toUpperCase()}`] ?? '';
  const port = new URL(baseUrl).port || '80';
  const { stdout } = await run('npm', ['run', '--silent', 'token', '--', user, '--no-groups'], {
    cwd: ROOT,
    env: { ...env, PORT: port },
  });
  const token = stdout.trim().split('\n').at(-1) ?? '';
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new Error(`npm run token -- ${user} printed no token`);
  return token;
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** VmRSS of a process and all its descendants, in kB (Linux /proc). */
function treeRssKb(pid: number): number {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return rss + children.reduce((sum, child) => sum + treeRssKb(Number(child)), 0);
  } catch {
    return 0;
  }
}
