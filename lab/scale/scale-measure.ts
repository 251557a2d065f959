// What the scale model takes from the real bundle: the read units of one first page of the stated
// shape, partition by partition (capacity proxy), and per request over warm runs with the group
// cache off and on; and the warm latency of each (function processes against dynalite over TLS).

import { CALLER, settings } from '../config.ts';
import type { Bundle } from '../harness/bundles.ts';
import { startCapacityProxy } from '../harness/capacity-proxy.ts';
import { type BenchEnvironment, plantsOf } from '../harness/environment.ts';
import { runFunction } from '../harness/function-process.ts';
import { withProgress } from '../harness/progress.ts';
import { writeAll } from '../harness/seed.ts';
import { percentile, round } from '../harness/stats.ts';

/** The page of the stated population: a caller's own plants, then each of their groups', in one page. */
export const PAGE_SHAPE = { ownPlants: 20, groupPlants: 30, groupsPerUser: 2, limit: 100 } as const;

const CLAIM = 'groups';
/** Requests after the first whose read units are counted; rounds of timed runs, off and on in turn. */
const COUNTED = 200;
const ROUNDS = 4;
const GROUPS = Array.from({ length: PAGE_SHAPE.groupsPerUser }, (_, g) => `scale-group-${g}`);

export interface CacheRun {
  ttlSeconds: number;
  /** Read units per request over a warm process's first 201 requests (a second or so: the cache never expires in it). */
  rruPerRequest: number;
  queriesPerRequest: number;
  p50Ms: number;
  meanMs: number;
  p99Ms: number;
  invocations: number;
}

export interface ScaleMeasurements {
  /** One first page, cold: read units of the caller's own partition and of one group's. */
  ownRru: number;
  groupRru: number;
  plantsPerPage: number;
  off: CacheRun;
  on: CacheRun;
}

export async function measureForScale(env: BenchEnvironment, handler: Bundle): Promise<ScaleMeasurements> {
  const { ownPlants, groupPlants, limit } = PAGE_SHAPE;
  await writeAll(env.dynamo.client, [
    ...plantsOf(CALLER, ownPlants),
    ...GROUPS.flatMap((group) => plantsOf('', groupPlants).map(({ owner: _, ...plant }) => ({ ...plant, group }))),
  ]);
  const event = env.eventWith({ [CLAIM]: GROUPS }, `limit=${limit}`);
  const proxy = await startCapacityProxy(env.dynamo.endpoint);
  const functionEnv = (ttl: number, dynamodb?: string) =>
    env.functionEnv({ ...(dynamodb && { dynamodb }), groupsClaim: CLAIM, groupCacheSeconds: ttl });
  const ttlOn = 5;
  const { scaleWarmup: warmup, scaleInvocations: invocations } = settings;
  try {
    const runs = 3 + 2 * ROUNDS;
    return await withProgress(
      'scale: read units and warm latency, cache off and on',
      runs,
      'runs',
      async (progress) => {
        proxy.take();
        const cold = await runFunction({ bundle: handler.file, env: functionEnv(0, proxy.endpoint), event });
        const expected = ownPlants + GROUPS.length * groupPlants;
        if (cold.statusCode !== 200 || cold.items !== expected) {
          throw new Error(`handler answered ${cold.statusCode} with ${cold.items} plants, not ${expected}`);
        }
        const first = proxy.take().filter((q) => /^(user|group)#/.test(q.partition));
        const groupReads = first.filter((q) => q.partition.startsWith('group#'));
        progress.increment();
        // Read units through the proxy (a few hundred requests: what they read is exact), latency
        // without it (the proxy's hop is not the function's), in rounds that alternate off and on so
        // both see the same machine load.
        const base = { bundle: handler.file, event };
        const counted = async (ttl: number) => {
          proxy.take();
          const run = await runFunction({ ...base, invocations: COUNTED, env: functionEnv(ttl, proxy.endpoint) });
          progress.increment();
          if (run.failures > 0) throw new Error(`warm run with a ${ttl} s cache failed`);
          return proxy.take().filter((q) => /^(user|group)#/.test(q.partition));
        };
        const reads = { off: await counted(0), on: await counted(ttlOn) };
        const latencies: { off: number[]; on: number[] } = { off: [], on: [] };
        for (let pass = 0; pass < ROUNDS; pass++) {
          for (const [key, ttl] of [
            ['off', 0],
            ['on', ttlOn],
          ] as const) {
            const run = await runFunction({
              ...base,
              warmup,
              invocations: invocations / ROUNDS,
              env: functionEnv(ttl),
            });
            progress.increment();
            if (run.failures > 0) throw new Error(`warm run with a ${ttl} s cache failed`);
            latencies[key].push(...run.latenciesUs);
          }
        }
        const summary = (key: 'off' | 'on', ttl: number): CacheRun => {
          const queries = reads[key];
          const us = latencies[key];
          return {
            ttlSeconds: ttl,
            rruPerRequest: round(queries.reduce((sum, q) => sum + q.capacityUnits, 0) / (1 + COUNTED), 4),
            queriesPerRequest: round(queries.length / (1 + COUNTED), 4),
            p50Ms: round(percentile(us, 50) / 1000, 3),
            meanMs: round(us.reduce((sum, v) => sum + v, 0) / us.length / 1000, 3),
            p99Ms: round(percentile(us, 99) / 1000, 3),
            invocations: us.length,
          };
        };
        return {
          ownRru: first.find((q) => q.partition.startsWith('user#'))?.capacityUnits ?? Number.NaN,
          groupRru: groupReads.reduce((sum, q) => sum + q.capacityUnits, 0) / groupReads.length,
          plantsPerPage: cold.items,
          off: summary('off', 0),
          on: summary('on', ttlOn),
        };
      },
    );
  } finally {
    await proxy.close();
  }
}
