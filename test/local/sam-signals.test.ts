// `npm run sam -- start-api` stopped as a process manager stops it, SIGTERM to npm alone: SAM is
// asked to stop, then DynamoDB and the issuer close, and nothing of the tree is left running.
// SAM and Docker are stand-ins (SAM and Docker themselves are never run here); the synth is real.

import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { removeTempDirs, tempDir } from '../helpers/local-server.ts';
import { connects, freePort } from '../helpers/ports.ts';

const REPO = new URL('../..', import.meta.url).pathname;
afterAll(removeTempDirs);

/** Stand-ins: Docker answering as an x86_64 engine with the image present, SAM serving until SIGINT. */
function standIns(): string {
  const dir = tempDir('path');
  const tools = {
    docker: 'if [ "$1" = version ]; then echo amd64; fi\nexit 0',
    sam: [
      'echo $$ > "$PLANTS_LOCAL_DIR/sam.pid"',
      `trap 'echo stopped > "$PLANTS_LOCAL_DIR/sam.stopped"; exit 0' INT`,
      'echo " * Running on http://127.0.0.1:3001" >&2',
      'while :; do sleep 0.1; done',
    ].join('\n'),
  };
  for (const [name, script] of Object.entries(tools)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Polls until `condition` holds, however long a busy machine takes; a condition that never holds is
 * the test's timeout to catch (the poll is unref'd, so an abandoned one holds nothing open).
 */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 100).unref());
}

describe('npm run sam -- start-api', () => {
  let npm: ChildProcess | undefined;
  let samPid = 0;
  // Whatever a failure left: npm's group, and SAM's own (runSam starts it in a group of its own).
  afterAll(() => {
    for (const pid of [-(npm?.pid ?? 0), -samPid]) if (pid !== 0 && running(pid)) process.kill(pid, 'SIGKILL');
  });

  it('stops SAM, DynamoDB and the issuer when npm alone gets SIGTERM', async () => {
    const localDir = tempDir('local');
    const port = await freePort();
    npm = spawn('npm', ['run', 'sam', '--', 'start-api', '--port', String(port)], {
      cwd: REPO,
      env: { ...process.env, PATH: `${standIns()}:${process.env.PATH}`, PLANTS_LOCAL_DIR: localDir },
      // Its own group, as a terminal would give it; only npm's pid is signalled.
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    npm.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => npm?.once('exit', resolve));

    // Serving, however long that takes; an npm that exits first ends the wait with what it said.
    let serving = false;
    const quit = exited.then((code) => {
      if (!serving) throw new Error(`npm run sam exited with ${code}:\n${stderr}`);
    });
    await Promise.race([until(() => stderr.includes('From another terminal')), quit]);
    serving = true;
    samPid = Number(readFileSync(join(localDir, 'sam.pid'), 'utf8'));
    const env = JSON.parse(readFileSync(join(localDir, 'sam', 'env.json'), 'utf8'));
    const variables = Object.values(env)[0] as Record<string, string>;
    const dynamoPort = Number(new URL(variables.DYNAMODB_ENDPOINT ?? '').port);
    const issuerPort = Number(new URL(variables.AUTH_JWKS_URI ?? '').port);
    expect(await connects('127.0.0.1', dynamoPort)).toBe(true);
    expect(await connects('127.0.0.1', issuerPort)).toBe(true);

    npm.kill('SIGTERM');
    await exited;
    await until(() => !running(samPid));
    expect(existsSync(join(localDir, 'sam.stopped'))).toBe(true);
    await until(async () => !(await connects('127.0.0.1', dynamoPort)));
    expect(await connects('127.0.0.1', issuerPort)).toBe(false);
    await until(() => stderr.includes('Stopped SAM, DynamoDB and the issuer.'));
  });
});
