// Running local servers, each recorded under .local/servers/, as the CLIs find them.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IssuerType } from '../../handlers/lib/environment.ts';

export interface ServerRecord {
  pid: number;
  port: number;
  origin: string;
  /** Present when the server runs the local issuer: what `npm run token` must mint for it. */
  issuer?: { url: string; shape: IssuerType; audience: string; groupsClaim?: string | undefined };
  /** The embedded store's data folder, when it persists to one. */
  dataDir?: string | undefined;
  /** The store is dynalite in the server's process (else an endpoint: moto, DynamoDB Local, AWS). */
  embedded?: boolean;
  store: { endpoint: string; region: string; tableName: string };
}

const serversDirOf = (localDir: string) => join(localDir, 'servers');
const recordFileOf = (localDir: string, port: number) => join(serversDirOf(localDir), `${port}.json`);

export function recordServer(localDir: string, record: ServerRecord): void {
  mkdirSync(serversDirOf(localDir), { recursive: true });
  writeFileSync(recordFileOf(localDir, record.port), JSON.stringify(record));
}

/** Removes this process's record; another server's (a later start, the same port reused) stays. */
export function forgetServer(localDir: string, port: number): void {
  const file = recordFileOf(localDir, port);
  if (readRecord(file)?.pid === process.pid) rmSync(file, { force: true });
}

/** The record in `file` if the process that wrote it still runs (a killed server leaves its file). */
function readRecord(file: string): ServerRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as ServerRecord;
    process.kill(record.pid, 0);
    return record;
  } catch {
    return undefined;
  }
}

export function runningServers(localDir: string): ServerRecord[] {
  let files: string[];
  try {
    files = readdirSync(serversDirOf(localDir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const records = files.map((name) => readRecord(join(serversDirOf(localDir), name)));
  return records.filter((record) => record !== undefined).sort((a, b) => a.port - b.port);
}

/**
 * The server on `port`, else the only one running. With several and none named it throws: picking one
 * handed out tokens for one server while the user called the other.
 */
export function findServer(localDir: string, port?: number): ServerRecord | undefined {
  const running = runningServers(localDir);
  const ports = running.map((server) => server.port).join(', ');
  if (port !== undefined) {
    const server = running.find((candidate) => candidate.port === port);
    if (server) return server;
    throw new Error(`No local server runs on port ${port} (${ports ? `running: ${ports}` : 'none is running'})`);
  }
  if (running.length > 1) {
    throw new Error(`Several local servers run (ports ${ports}): name one with --port N`);
  }
  return running[0];
}
