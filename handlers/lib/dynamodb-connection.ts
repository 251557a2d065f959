// DynamoDB's connection, opened during init before the SDK's code is loaded: its TCP and TLS
// handshakes go on while the SDK compiles, and the SDK's first request (the init warm-up) finds it
// open. list-plants.ts imports this module dynamically, after the JWKS fetch has started.

import { Agent, type AgentOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Config } from './environment.ts';

/**
 * The SDK's default agent (keep-alive, 50 sockets) whose first connection is already under way,
 * handed to the first request for that host and port; createConnection is Node's documented
 * override point for where an agent's sockets come from.
 */
class PreconnectedAgent extends Agent {
  #opened: { socket: Duplex | null | undefined; host: string; port: number } | undefined;

  constructor(url: URL) {
    super({ keepAlive: true, maxSockets: 50 });
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || 443);
    // The name the certificate must match, as Node's agent gives it: none for an IP address.
    const socket = super.createConnection({ host, port, ...(isIP(host) === 0 && { servername: host }) });
    // A failed connect is not init's failure: the first request opens another. Until a request
    // takes it, it does not keep the process alive.
    (socket as Socket | undefined)?.on('error', () => {}).unref();
    this.#opened = { socket, host, port };
  }

  override createConnection(options: AgentOptions & { host?: string; port?: number | string }, ...rest: never[]) {
    const opened = this.#opened;
    this.#opened = undefined;
    const socket =
      opened && opened.host === options.host && opened.port === Number(options.port) ? opened.socket : undefined;
    if (socket && !socket.destroyed) return (socket as Socket).ref();
    opened?.socket?.destroy();
    return super.createConnection(options, ...rest);
  }
}

/**
 * Starts connecting to where the SDK will send: the endpoint given, else DynamoDB's in the Region as
 * the SDK's rules name it in the `aws` partition. Elsewhere (China, GovCloud) the SDK asks for
 * another host and opens its own connection: the guess costs a connect, never a wrong request.
 */
export function connectDynamodb({
  dynamodbEndpoint,
  aws,
}: Pick<Config, 'dynamodbEndpoint' | 'aws'>): Agent | undefined {
  if (!dynamodbEndpoint && !aws.region) return undefined;
  const url = new URL(dynamodbEndpoint ?? dynamodbUrl(aws.region ?? '', aws));
  return url.protocol === 'https:' ? new PreconnectedAgent(url) : undefined;
}

export const dynamodbUrl = (region: string, { useFipsEndpoint, useDualstackEndpoint }: Config['aws']) =>
  `https://dynamodb${useFipsEndpoint ? '-fips' : ''}.${region}.${useDualstackEndpoint ? 'api.aws' : 'amazonaws.com'}`;
