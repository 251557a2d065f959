// `npm run test:load -w lab`: a bounded load run against the local server on loopback (autocannon),
// mixing valid and hostile requests from two users, in rounds. It fails on any unexpected status,
// any response that shows one user another's plants, any socket error or timeout, a server crash,
// or memory that keeps growing after forced garbage collection from round to round (a leak), and
// reports p50/p99 latency and the server's memory after each round.
//
// LOAD_BASE_URL targets a running server (tokens from LOAD_TOKEN_<USER> or `npm run token`; its
// memory is not measured); without it `npm start`'s server is started on a free port with the
// inspector on. LOAD_REQUESTS (20000, split over LOAD_ROUNDS, 4), LOAD_CONNECTIONS (50),
// LOAD_USERS (alice,bob) and LOAD_MAX_GROWTH_MB (1: heap + ArrayBuffers after GC, per round) size it.

import autocannon, { type Request } from 'autocannon';
import type { MemoryAfterGc } from './inspector.ts';
import { startTarget, tokenFor } from './server.ts';

const env = process.env;
const TOTAL = Number(env.LOAD_REQUESTS ?? 20_000);
const ROUNDS = Math.max(2, Number(env.LOAD_ROUNDS ?? 4));
const CONNECTIONS = Number(env.LOAD_CONNECTIONS ?? 50);
const USERS = (env.LOAD_USERS ?? 'alice,bob').split(',');
const MAX_GROWTH_MB = Number(env.LOAD_MAX_GROWTH_MB ?? 1);
const PAGE = '/plants?limit=3';

const target = await startTarget(env);
try {
  const report = await loadRun(target.baseUrl);
  const rssAfter = target.rssMb();
  const summary = {
    ...report,
    rssMbAfter: rssAfter === undefined ? undefined : Math.round(rssAfter),
    rssMbGrowth:
      rssAfter === undefined || report.rssMbBefore === undefined
        ? undefined
        : Math.round(rssAfter - report.rssMbBefore),
    memoryGrowth: memoryVerdict(report.afterGc),
    serverAlive: target.alive(),
  };
  console.log(JSON.stringify(summary, null, 2));
  const failed =
    summary.unexpected + summary.crossUser + summary.errors + summary.timeouts > 0 ||
    !summary.serverAlive ||
    summary.memoryGrowth.leaks;
  process.exitCode = failed ? 1 : 0;
} finally {
  target.stop();
}

/**
 * Heap plus ArrayBuffers after GC, from the end of the first round to the end of the last, per
 * round: the first round absorbs one-time growth (JIT, caches filling), so what still grows after
 * it grows with the requests. Over LOAD_MAX_GROWTH_MB per round is a leak.
 */
function memoryVerdict(afterGc: (MemoryAfterGc | undefined)[]) {
  const held = afterGc.map((m) => (m === undefined ? undefined : m.heapUsedMb + m.arrayBuffersMb));
  const first = held[1];
  const last = held.at(-1);
  if (first === undefined || last === undefined) return { measured: false, leaks: false };
  const perRoundMb = Math.round(((last - first) / (held.length - 2)) * 10) / 10;
  return { measured: true, perRoundMb, maxPerRoundMb: MAX_GROWTH_MB, leaks: perRoundMb > MAX_GROWTH_MB };
}

async function loadRun(baseUrl: string) {
  const tokens = Object.fromEntries(
    await Promise.all(USERS.map(async (u) => [u, await tokenFor(u, baseUrl, target.env)])),
  );
  const baselines: Record<string, { body: string; names: Set<string>; cursor: string | null }> = {};
  for (const user of USERS) {
    const response = await fetch(baseUrl + PAGE, { headers: { authorization: `Bearer ${tokens[user]}` } });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${user}'s first page answered ${response.status}: ${body}`);
    const next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    const names = new Set((JSON.parse(body) as { name: string }[]).map((plant) => plant.name));
    baselines[user] = { body, names, cursor: next ? new URL(next, baseUrl + PAGE).searchParams.get('cursor') : null };
  }

  const counts = { unexpected: 0, crossUser: 0, byKind: {} as Record<string, Record<number, number>> };
  const expect = (kind: string, status: number, check?: (body: string) => void): Request['onResponse'] => {
    return (actual, body) => {
      counts.byKind[kind] ??= {};
      const seen = counts.byKind[kind];
      seen[actual] = (seen[actual] ?? 0) + 1;
      if (actual !== status) counts.unexpected += 1;
      else check?.(body);
    };
  };
  /** A 200 must be the caller's own first page; another user's plant in it is a cross-user leak. */
  const ownPage = (user: string) => (body: string) => {
    if (body === baselines[user]?.body) return;
    const others = USERS.filter((u) => u !== user).flatMap((u) => [...(baselines[u]?.names ?? [])]);
    if (others.some((name) => body.includes(JSON.stringify(name)) && !baselines[user]?.names.has(name))) {
      counts.crossUser += 1;
    } else counts.unexpected += 1;
  };

  const [first = '', second = first] = USERS;
  const [head, , signature] = (tokens[first] ?? '').split('.');
  const requests: Request[] = [
    ...USERS.map((user) => ({
      path: PAGE,
      headers: { authorization: `Bearer ${tokens[user]}` },
      onResponse: expect(`valid ${user}`, 200, ownPage(user)),
    })),
    {
      path: PAGE,
      headers: { authorization: `Bearer ${head}.${(tokens[second] ?? '').split('.')[1]}.${signature}` },
      onResponse: expect('payload swapped', 401),
    },
    { path: PAGE, headers: { authorization: 'Bearer not-a-token' }, onResponse: expect('garbage token', 401) },
    { path: PAGE, onResponse: expect('no token', 401) },
    {
      path: '/plants?limit=abc',
      headers: { authorization: `Bearer ${tokens[first]}` },
      onResponse: expect('bad limit', 400),
    },
  ];
  const cursor = baselines[first]?.cursor;
  if (cursor && second !== first) {
    requests.push({
      path: `/plants?cursor=${encodeURIComponent(cursor)}`,
      headers: { authorization: `Bearer ${tokens[second]}` },
      onResponse: expect('another user’s cursor', 400),
    });
  }

  // Warm up (JIT, caches, connections) before the memory baseline.
  await autocannon({ url: baseUrl, connections: CONNECTIONS, amount: 1000, requests });
  counts.unexpected = 0;
  counts.crossUser = 0;
  counts.byKind = {};
  const rssBefore = target.rssMb();
  const afterGc = [await target.memoryAfterGc()];
  const totals = { requests: 0, durationS: 0, errors: 0, timeouts: 0, statuses: {} as Record<string, number> };
  let latencyMs = {};
  for (let round = 1; round <= ROUNDS; round++) {
    const amount = Math.ceil(TOTAL / ROUNDS);
    const result = await autocannon({ url: baseUrl, connections: CONNECTIONS, amount, timeout: 10, requests });
    totals.requests += result.requests.total;
    totals.durationS += result.duration;
    totals.errors += result.errors;
    totals.timeouts += result.timeouts;
    for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
      totals.statuses[status] = (totals.statuses[status] ?? 0) + count;
    }
    const { p50, p90, p99, max } = result.latency;
    latencyMs = { p50, p90, p99, max };
    afterGc.push(await target.memoryAfterGc());
  }

  return {
    ...totals,
    rounds: ROUNDS,
    connections: CONNECTIONS,
    requestsPerSecond: Math.round(totals.requests / totals.durationS),
    byKind: counts.byKind,
    unexpected: counts.unexpected,
    crossUser: counts.crossUser,
    /** Of the last round. */
    latencyMs,
    rssMbBefore: rssBefore === undefined ? undefined : Math.round(rssBefore),
    /** Before the first round, then after each. */
    afterGc,
  };
}
