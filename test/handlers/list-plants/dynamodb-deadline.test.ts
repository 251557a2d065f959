// One deadline per request, through the bundle that deploys: whatever DynamoDB's endpoint (or
// something between) does, a caller in 12 groups with the group cache off gets the contract's 503
// with Retry-After, ended by the code's own bounds (the deadline this test sets, the SDK's attempts,
// the answer's size), or, with plants already read, a shorter page that links on; and the function
// serves again once the fault clears. Legal answers are never refused for their size.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_QUERIES_PER_PAGE } from '../../../handlers/lib/plants.ts';
import { createSigningKey, type JwksServer, startJwksServer, type TlsIdentity } from '../../../local/issuer/issuer.ts';
import { mintToken } from '../../../local/issuer/tokens.ts';
import { type BundledFunction, buildBundle, startBundledFunction } from '../../helpers/bundle.ts';
import { type LocalDynamo, putPlants, startDynamo } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Fault, type FaultyDynamo, MID_BODY_DROPS, startFaultyDynamo } from '../../helpers/faulty-dynamo.ts';
import { FAULT_DEADLINE_MS } from '../../helpers/function-env.ts';
import { nextQuery } from '../../helpers/links.ts';
import { removeTempDirs, tempDir } from '../../helpers/local-server.ts';
import { AUDIENCE, serviceEnvironment, TABLE } from '../../helpers/service.ts';

const GROUPS = Array.from({ length: 12 }, (_, i) => `team-${i}`);
/** This test's own deadline (test/helpers/function-env.ts). */
const DEADLINE_MS = FAULT_DEADLINE_MS;
/** A plant of DynamoDB's largest legal size, all control characters: 6 times its size once JSON-escaped. */
const ESCAPED_NAME = '\u0001'.repeat(385_000);

/**
 * What may end each fault's request, as the record's cause says it: `name: message`. A fault whose
 * bound is not the deadline (the answer's size, the SDK's attempts) runs with the longest deadline, so
 * that bound ends it however slow the machine (9 MB read at load 35 took longer than 8 s).
 */
const ENDED_BY: [Fault, RegExp][] = [
  ['trickle', new RegExp(`^DeadlineExceeded: DynamoDB's deadline \\(${DEADLINE_MS} ms\\) passed`)],
  ['stall', /^(DeadlineExceeded|TimeoutError):/],
  ['throttled', /^(DeadlineExceeded|ProvisionedThroughputExceededException):/],
  ['proxy-502', /^(DeadlineExceeded|SyntaxError):/],
  ['endless', /^ResponseTooLarge:/],
  ['announced-too-large', /^ResponseTooLarge:/],
  // The SDK's own error for a body cut short, whatever status came before it.
  ...MID_BODY_DROPS.map((drop): [Fault, RegExp] => [drop, /^Error: aborted/]),
];
const ENDED_ELSEWHERE: Fault[] = ['endless', ...MID_BODY_DROPS];

let dynamo: LocalDynamo;
let faulty: FaultyDynamo;
let issuer: JwksServer;
/** With this test's deadline: the faults. */
let fn: BundledFunction;
/** With the deadline of every healthy-path test, through the same endpoint: what must succeed. */
let unhurried: BundledFunction;
let mint: (subject: string) => string;

beforeAll(async () => {
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  const caFile = join(tempDir('deadline'), 'issuer-cert.pem');
  writeFileSync(caFile, tls.cert);
  const key = createSigningKey();
  issuer = await startJwksServer(tls, [key]);
  dynamo = await startDynamo(TABLE);
  faulty = await startFaultyDynamo();
  faulty.target = dynamo.endpoint;
  await putPlants(dynamo.client, TABLE, [
    { owner: 'alice', id: 'p1', name: 'Fern' },
    ...GROUPS.map((group) => ({ group, id: 'p1', name: `${group}'s fern` })),
    { owner: 'carol', id: 'p1', name: ESCAPED_NAME },
  ]);
  mint = (subject) => mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject, ttl: 600, groups: GROUPS });
  const bundle = await buildBundle();
  const env = {
    ...serviceEnvironment(faulty.endpoint, issuer.url),
    NODE_EXTRA_CA_CERTS: caFile,
    AUTH_GROUPS_CLAIM: 'cognito:groups',
    GROUP_CACHE_TTL_SECONDS: '0',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  fn = startBundledFunction(bundle, { ...env, DYNAMODB_DEADLINE_MS: String(DEADLINE_MS) });
  unhurried = startBundledFunction(bundle, env);
});
afterAll(async () => {
  await Promise.all([fn?.stop(), unhurried?.stop()]);
  await Promise.all([faulty?.close(), issuer?.close(), dynamo?.close()]);
  removeTempDirs();
});

const callOn = (target: BundledFunction, subject = 'alice', query = '') =>
  target.invoke(httpApiEvent({ query, headers: { authorization: `Bearer ${mint(subject)}` } }));
const call = (subject?: string, query?: string) => callOn(fn, subject, query);
const nextOf = (result: { headers?: Record<string, unknown> }) =>
  result.headers?.Link === undefined ? undefined : nextQuery({ headers: { link: String(result.headers.Link) } });
const names = (body: string) => (JSON.parse(body) as { name: string }[]).map(({ name }) => name);
// Own plants first, then each group's in name order.
const ALICES = ['Fern', ...GROUPS.toSorted().map((group) => `${group}'s fern`)];

describe("one deadline for all of a request's DynamoDB work", () => {
  it('reads a caller in 12 groups a Query a partition when nothing fails', async () => {
    const result = await callOn(unhurried);
    expect(result.statusCode).toBe(200);
    // One plant a partition, up to the page's Query cap.
    expect(JSON.parse(result.body)).toHaveLength(Math.min(GROUPS.length + 1, MAX_QUERIES_PER_PAGE));
  });

  it.each(ENDED_BY)('DynamoDB %s: 503 with Retry-After, ended by %s; then serves again', async (fault, cause) => {
    const target = ENDED_ELSEWHERE.includes(fault) ? unhurried : fn;
    faulty.fault = fault;
    const before = target.records().length;
    const result = await callOn(target);
    faulty.fault = 'none';

    expect(result.statusCode).toBe(503);
    expect(result.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(result.body)).toEqual({ error: 503, message: 'Service temporarily unavailable, retry later' });
    // The cause the request record keeps: what ended the request.
    const [record] = target.records().slice(before);
    const error = record?.error as { cause?: { name?: string; message?: string } };
    expect(`${error?.cause?.name}: ${error?.cause?.message}`).toMatch(cause);

    expect((await callOn(target)).statusCode).toBe(200);
  });

  it.each<[Fault, string]>([
    ['trickle', 'the deadline passes'],
    ['stall', "the SDK's attempts are spent"],
  ])('answers the plants already read and a next link from there when DynamoDB stops (%s: %s)', async (fault) => {
    // Prepare: the first two Queries (alice's own partition, then team-0's) answer; every later one fails.
    faulty.fault = fault;
    faulty.faultAfter = 2;
    const short = await call();
    faulty.fault = 'none';

    expect(short.statusCode).toBe(200);
    expect(names(short.body)).toEqual(ALICES.slice(0, 2));
    // The link goes on from there: walked to the end, the rest comes once each.
    const rest: string[] = [];
    for (let query = nextOf(short); query !== undefined && rest.length <= ALICES.length; ) {
      const page = await callOn(unhurried, 'alice', query);
      rest.push(...names(page.body));
      query = nextOf(page);
    }
    expect(rest).toEqual(ALICES.slice(2));
  });
});

describe('retries that succeed, then the deadline', () => {
  it('answers what the retried Queries read before the deadline, with a next link', async () => {
    // Every Query's first two attempts hang: each partition costs two timeouts, so the deadline comes first.
    faulty.fault = 'hang-twice';
    const short = await call();
    faulty.fault = 'none';

    expect(short.statusCode).toBe(200);
    const read = names(short.body);
    expect(read.length).toBeGreaterThan(0);
    expect(read).toEqual(ALICES.slice(0, read.length));
    expect(short.headers?.Link).toBeDefined();
  });
});

describe('answers as large as DynamoDB may legally send', () => {
  it('serves a 385 KB plant of control characters (2.3 MB once escaped)', async () => {
    const result = await callOn(unhurried, 'carol');
    expect(result.statusCode).toBe(200);
    expect(names(result.body)).toEqual([ESCAPED_NAME]);
  });
});
