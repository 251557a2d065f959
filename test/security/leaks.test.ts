// Leaks: every log line the handler writes in this file is captured (console methods and the
// process streams), while hostile and valid credentials meet normal service, a DynamoDB
// validation error (500), throttling (503) and a JWKS outage (503). No response may carry a
// token, an Authorization value or a stack trace, and no log line may carry a token.

import { formatWithOptions } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { base64url, createSigningKey, signToken } from '../../local/issuer/issuer.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { type Fault, type FaultyDynamo, startServiceWithFaultyDynamo } from '../helpers/faulty-dynamo.ts';
import { restApiEvent } from '../helpers/rest-api-event.ts';
import { AUDIENCE, type Reply, type Service } from '../helpers/service.ts';

let service: Service;
let dynamo: FaultyDynamo;
const lines: string[] = [];

// Objects are formatted in full (depth: Infinity), stricter than what the runtime would print.
const capture = (...args: unknown[]) =>
  void lines.push(formatWithOptions({ depth: Number.POSITIVE_INFINITY }, ...args));
const spies = [
  ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
    jest.spyOn(console, method).mockImplementation(capture),
  ),
];
// stdout and stderr (the Powertools log lines) are captured by startService: service.logs.
const allLines = () => [...lines, ...service.logs.raw()];

let stop: () => Promise<void>;

beforeAll(async () => {
  ({ service, dynamo, stop } = await startServiceWithFaultyDynamo([{ owner: 'alice', id: 'p1', name: 'Fern' }], {
    issuerDownAtInit: true,
  }));
});
afterAll(async () => {
  for (const spy of spies) spy.mockRestore();
  await stop?.();
});

const now = () => Math.floor(Date.now() / 1000);
const foreign = createSigningKey();
/** Credentials sent; each is a secret that must not come back or be logged. */
const credentials: [string, () => string][] = [
  ['a valid token', () => `Bearer ${service.token('alice')}`],
  ['an expired token', () => `Bearer ${service.token('alice', { exp: now() - 60 })}`],
  ['an unknown kid', () => `Bearer ${signToken(foreign, { iss: service.issuer.url, aud: AUDIENCE, sub: 'alice' })}`],
  ['a tampered token', () => `Bearer ${service.token('alice').replace(/\.[^.]+\./, `.${base64url({ sub: 'bob' })}.`)}`],
  ['two tokens', () => `Bearer ${service.token('alice')} ${service.token('bob')}`],
  ['a Basic credential', () => `Basic ${Buffer.from('alice:hunter2-secret').toString('base64')}`],
  ['random text', () => `Bearer ${'s3cr3t-'.repeat(20)}`],
];
// The JWKS outage comes first, while nothing is cached yet: once the keys are cached, an
// issuer outage no longer touches the request path.
const situations: [string, Fault | 'jwks-down', number][] = [
  ['a JWKS outage at cold start (503)', 'jwks-down', 503],
  ['normal service', 'none', 200],
  ['a DynamoDB validation error (500)', 'validation', 500],
  ['DynamoDB throttling (503)', 'throttled', 503],
];

/** The strings of a credential that must never leave: the whole value and its long parts. */
function secretsOf(authorization: string): string[] {
  const value = authorization.replace(/^\S+ +/, '');
  return [authorization, value, ...value.split(/[. ]/).filter((part) => part.length >= 16)];
}
const STACK_TRACE = /\n\s+at |\bat [^\n]*:\d+:\d+|node_modules|handlers\/|\.ts\b/;

const replies: [string, Reply, string[]][] = [];
const statusesBySituation = new Map<string, Set<number>>();
async function send(situation: Fault | 'jwks-down', authorization: string, rest: boolean): Promise<Reply> {
  dynamo.fault = situation === 'jwks-down' ? 'none' : situation;
  service.issuer.available = situation !== 'jwks-down';
  // A token also sent where it does not belong: in the query string.
  const query = `limit=1&access_token=${encodeURIComponent(authorization)}`;
  const headers = { Authorization: authorization };
  try {
    return await service.call(rest ? restApiEvent({ query, headers }) : httpApiEvent({ query, headers }));
  } finally {
    dynamo.fault = 'none';
    service.issuer.available = true;
  }
}

describe('leaks', () => {
  beforeAll(async () => {
    for (const [situationName, situation] of situations) {
      statusesBySituation.set(situationName, new Set());
      for (const [credentialName, credential] of credentials) {
        for (const rest of [false, true]) {
          const authorization = credential();
          const reply = await send(situation, authorization, rest);
          replies.push([`${credentialName} in ${situationName}`, reply, secretsOf(authorization)]);
          statusesBySituation.get(situationName)?.add(reply.status);
        }
      }
    }
  });

  it('met, in each situation, the outcome it claims to cover, and captured the handler’s logs', () => {
    for (const [name, , status] of situations)
      expect([name, statusesBySituation.get(name)?.has(status)]).toEqual([name, true]);
    expect(allLines().some((line) => STACK_TRACE.test(line))).toBe(true); // 5xx causes are logged with stacks
  });

  it('never puts a credential or a stack trace in a response', () => {
    for (const [name, reply, secrets] of replies) {
      const response = JSON.stringify(reply);
      for (const secret of secrets)
        expect({ name, leaked: response.includes(secret) }).toEqual({ name, leaked: false });
      expect({ name, stack: STACK_TRACE.test(response) }).toEqual({ name, stack: false });
    }
  });

  it('never writes a credential to a log line', () => {
    const secrets = replies.flatMap(([, , s]) => s);
    for (const line of allLines()) {
      for (const secret of secrets) expect(line.includes(secret) ? line : '').toBe('');
    }
  });
});
