// What `npm run sam` needs before it starts: the SAM CLI and Docker, and an engine that answers.

import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer, isIPv4 } from 'node:net';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const INSTALL: Record<string, string> = {
  sam: 'the AWS SAM CLI (https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/install-sam-cli.html)',
  docker: 'Docker (https://docs.docker.com/get-started/get-docker/)',
};

/** A missing tool or a stopped engine: the message is the one line to print. */
export class PrerequisiteError extends Error {
  override name = 'PrerequisiteError';
}

export function onPath(name: string, path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The engine's architecture, as Lambda names it, and where DynamoDB and the issuer listen (bridgeAddress). */
export async function checkPrerequisites(env: NodeJS.ProcessEnv) {
  const missing = ['sam', 'docker'].filter((tool) => !onPath(tool, env.PATH));
  if (missing.length > 0) {
    throw new PrerequisiteError(
      `npm run sam needs ${missing.map((tool) => INSTALL[tool]).join(' and ')}: install, then run it again`,
    );
  }
  const arch = await docker(['version', '--format', '{{.Server.Arch}}']).catch((error: Error & { stderr?: string }) => {
    const said = (error.stderr ?? error.message).trim().split('\n')[0];
    throw new PrerequisiteError(
      `Docker is installed but its engine does not answer (${said}): start Docker, then run it again`,
    );
  });
  // The default bridge's gateway: docker0's address on a Linux engine, which host-gateway names.
  const bridge = await docker([
    'network',
    'inspect',
    'bridge',
    '--format',
    '{{range .IPAM.Config}}{{.Gateway}} {{.Subnet}} {{end}}',
  ]).catch(() => '');
  return {
    architecture: arch === 'arm64' || arch === 'aarch64' ? ('arm64' as const) : ('x86_64' as const),
    bindAddress: await bridgeAddress(bridge.split(/\s+/)),
  };
}

async function docker(args: string[]): Promise<string> {
  const { stdout } = await run('docker', args, { timeout: 15_000 });
  return stdout.trim();
}

// Where DynamoDB and the issuer listen: a Linux engine's bridge address (host-gateway) is this machine's (even while no container is up and the
// interface reports no carrier); Docker Desktop's is in its VM, which forwards host.docker.internal
// to this machine's loopback. Docker 20.10 lists the subnet without its gateway: the first address.
async function bridgeAddress(listed: string[]): Promise<string> {
  const candidates = listed.map((entry) => {
    const cidr = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/\d+$/.exec(entry);
    return cidr ? `${cidr[1]}.${cidr[2]}.${cidr[3]}.${Number(cidr[4]) + 1}` : entry;
  });
  for (const address of candidates.filter((entry) => isIPv4(entry))) {
    if (await canListenOn(address)) return address;
  }
  return '127.0.0.1';
}

function canListenOn(address: string): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, address, () => server.close(() => resolve(true)));
  });
}
