// Property-based tests (fast-check) against the real handler, dynalite and the TLS JWKS:
// random owners, groups, memberships and plants compared with a model across pagination walks, and random requests
// that must only ever answer 200/400/401/403 with a body that matches openapi.yaml. The group cache is
// on, for the whole file (an hour's time to live): every group read after the first may come from it.
//
// Deterministic: a fixed seed unless FC_SEED is set; FC_RUNS scales the run counts. A failure
// prints the seed and path: rerun with FC_SEED=<seed> FC_PATH=<path> to replay it.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { PlantItem } from '../helpers/dynamo.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { nextCursor } from '../helpers/links.ts';
import { restApiEvent } from '../helpers/rest-api-event.ts';
import { type Service, startService } from '../helpers/service.ts';

const SEED = Number(process.env.FC_SEED ?? 20261121);
const PATH = process.env.FC_PATH;
const SCALE = Number(process.env.FC_RUNS ?? 1);
const MODEL_RUNS = 100 * SCALE;
const SHARING_RUNS = 60 * SCALE;
const REQUEST_RUNS = 500 * SCALE;
const CACHE_RUNS = 60 * SCALE;
const PAGE_MAX = 5;
const SCOPE = 'plants:read';

let service: Service;
beforeAll(async () => {
  service = await startService({
    MAX_PAGE_SIZE: String(PAGE_MAX),
    AUTH_REQUIRED_SCOPE: SCOPE,
    AUTH_GROUPS_CLAIM: 'groups',
    GROUP_CACHE_TTL_SECONDS: '3600',
  });
});
afterAll(() => service?.stop());

/** fc.assert with the run's seed, and the command that replays a failure. */
async function check<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<void> {
  const details = await fc.check(property, { seed: SEED, numRuns, ...(PATH && { path: PATH }) });
  if (details.failed) {
    throw new Error(
      `${fc.defaultReportMessage(details)}\nReplay: FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath} npm run test:jest -- test/security/properties`,
    );
  }
}

const call = (event: Parameters<Service['call']>[0]) => service.call(event);
const bearerFor = (sub: string, claims: Record<string, unknown> = { scope: SCOPE }) =>
  `Bearer ${service.token(sub, claims)}`;
/**
 * Follows next links, asking for the page sizes in turn: every page must be the model's next slice,
 * and the walk must end having returned the whole model, each plant once.
 */
async function walk(
  expected: unknown[],
  pageSizes: number[],
  request: (query: string) => ReturnType<typeof call>,
): Promise<void> {
  const seen: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page <= expected.length; page++) {
    const limit = pageSizes[page % pageSizes.length] ?? 1;
    const reply = await request(new URLSearchParams({ limit: String(limit), ...(cursor && { cursor }) }).toString());
    expect(reply.status).toBe(200);
    const body = reply.body as unknown[];
    expect(body).toEqual(expected.slice(seen.length, seen.length + Math.min(limit, PAGE_MAX)));
    seen.push(...body);
    cursor = nextCursor(reply);
    if (cursor === undefined) break;
  }
  expect(seen).toEqual(expected);
}
/** DynamoDB orders string sort keys by their UTF-8 bytes, not by UTF-16 code units. */
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

// Any Unicode text, astral planes and control characters included.
const text = (minLength: number, maxLength: number) => fc.string({ unit: 'binary', minLength, maxLength });
const plantArb = fc.record({ id: text(1, 8), name: text(1, 12), tag: fc.option(text(0, 8), { nil: undefined }) });
const worldArb = fc.uniqueArray(
  fc.record({ sub: text(1, 10), plants: fc.uniqueArray(plantArb, { selector: (p) => p.id, maxLength: 12 }) }),
  { selector: (u) => u.sub, minLength: 1, maxLength: 4 },
);
const pageSizesArb = fc.array(fc.integer({ min: 1, max: PAGE_MAX + 2 }), { minLength: 1, maxLength: 6 });

describe('every caller sees exactly their own plants (model-based)', () => {
  let world = 0;
  it(`holds for ${MODEL_RUNS} random sets of owners and plants, walked with random page sizes`, async () => {
    await check(
      fc.asyncProperty(worldArb, pageSizesArb, fc.boolean(), async (users, pageSizes, rest) => {
        // Every run gets fresh partitions, so runs cannot see each other's plants.
        const prefix = `w${world++}/`;
        const items: PlantItem[] = users.flatMap(({ sub, plants }) =>
          plants.map(({ id, name, tag }) => ({ owner: prefix + sub, id, name, ...(tag !== undefined && { tag }) })),
        );
        await service.seed(items);

        for (const { sub, plants } of users) {
          const expected = [...plants]
            .sort((a, b) => byUtf8(a.id, b.id))
            .map(({ name, tag }) => (tag === undefined ? { name } : { name, tag }));
          const headers = { Authorization: bearerFor(prefix + sub) };
          await walk(expected, pageSizes, (query) =>
            call(rest ? restApiEvent({ query, headers }) : httpApiEvent({ query, headers })),
          );
        }
      }),
      MODEL_RUNS,
    );
  });
});

// Group names from characters that stress the key format: separators, spaces, Unicode, astral.
const groupNameArb = fc.string({
  unit: fc.constantFrom('a', 'B', '#', '/', ' ', 'é', '🌿', 'user#'),
  minLength: 1,
  maxLength: 4,
});
const plantsArb = fc.uniqueArray(plantArb, { selector: (p) => p.id, maxLength: 6 });
const sharingArb = fc
  .record({
    groups: fc.uniqueArray(groupNameArb, { maxLength: 4 }),
    users: fc.uniqueArray(fc.record({ sub: text(1, 8), plants: plantsArb }), {
      selector: (u) => u.sub,
      minLength: 1,
      maxLength: 3,
    }),
  })
  .chain(({ groups, users }) =>
    fc.record({
      groups: fc.constant(groups),
      users: fc.constant(users),
      memberships: fc.array(fc.subarray(groups), { minLength: users.length, maxLength: users.length }),
      groupPlants: fc.array(plantsArb, { minLength: groups.length, maxLength: groups.length }),
    }),
  );
type Model = { id: string; name: string; tag?: string | undefined };
const view = (plants: Model[]) =>
  [...plants].sort((a, b) => byUtf8(a.id, b.id)).map(({ name, tag }) => (tag === undefined ? { name } : { name, tag }));

describe('every caller sees exactly their own plants and their groups’ (model-based)', () => {
  let world = 0;
  it(`holds for ${SHARING_RUNS} random sets of users, groups, memberships and plants`, async () => {
    await check(
      fc.asyncProperty(sharingArb, pageSizesArb, async ({ groups, users, memberships, groupPlants }, pageSizes) => {
        // Fresh partitions per run; one prefix for all of a run's groups keeps their relative order.
        const prefix = `s${world++}/`;
        const items: PlantItem[] = [
          ...users.flatMap(({ sub, plants }) => plants.map((plant) => ({ ...plant, owner: prefix + sub }))),
          ...groups.flatMap((group, g) => (groupPlants[g] ?? []).map((plant) => ({ ...plant, group: prefix + group }))),
        ].map(({ tag, ...item }) => (tag === undefined ? item : { ...item, tag }));
        await service.seed(items);

        for (const [u, { sub, plants }] of users.entries()) {
          const mine = [...(memberships[u] ?? [])].sort();
          const expected = [
            ...view(plants),
            ...mine.flatMap((group) => view(groupPlants[groups.indexOf(group)] ?? [])),
          ];
          const token = service.token(prefix + sub, { scope: SCOPE, groups: mine.map((group) => prefix + group) });
          await walk(expected, pageSizes, (query) =>
            call(httpApiEvent({ query, headers: { authorization: `Bearer ${token}` } })),
          );
        }
      }),
      SHARING_RUNS,
    );
  });
});

// Callers whose walks interleave, each with its own page sizes and its token's groups, so that one
// caller's reads fill the cache another's are answered from. Every plant is named for its partition.
const cacheWorldArb = fc
  .record({
    groups: fc.uniqueArray(groupNameArb, { minLength: 1, maxLength: 4 }),
    users: fc.integer({ min: 2, max: 4 }),
    plantCounts: fc.array(fc.nat(6), { minLength: 8, maxLength: 8 }),
  })
  .chain(({ groups, users, plantCounts }) =>
    fc.record({
      groups: fc.constant(groups),
      plantCounts: fc.constant(plantCounts),
      callers: fc.array(fc.record({ grants: fc.subarray(groups), pageSizes: pageSizesArb }), {
        minLength: users,
        maxLength: users,
      }),
      turns: fc.array(fc.nat(users - 1), { minLength: 4 * users, maxLength: 40 }),
    }),
  );

describe('the group cache never serves a partition the caller’s token does not grant', () => {
  let world = 0;
  it(`holds for ${CACHE_RUNS} random sets of groups and callers whose walks interleave`, async () => {
    await check(
      fc.asyncProperty(cacheWorldArb, async ({ groups, plantCounts, callers, turns }) => {
        const prefix = `c${world++}/`;
        const plantsOf = (partition: string, count: number) =>
          Array.from({ length: count }, (_, i) => ({ id: `p${i}`, name: `${partition}|${i}` }));
        const count = (i: number) => plantCounts[i % plantCounts.length] ?? 0;
        await service.seed([
          ...callers.flatMap((_, u) =>
            plantsOf(`user#${prefix}u${u}`, count(u)).map((p) => ({ ...p, owner: `${prefix}u${u}` })),
          ),
          ...groups.flatMap((group, g) =>
            plantsOf(`group#${prefix}${group}`, count(g + 4)).map((p) => ({ ...p, group: prefix + group })),
          ),
        ]);
        const walks = callers.map(({ grants, pageSizes }, u) => {
          const mine = [...grants].sort();
          const granted = [`user#${prefix}u${u}`, ...mine.map((group) => `group#${prefix}${group}`)];
          return {
            granted,
            expected: granted.flatMap((partition, i) =>
              plantsOf(partition, i === 0 ? count(u) : count(groups.indexOf(mine[i - 1] ?? '') + 4)).map(
                ({ name }) => ({ name }),
              ),
            ),
            token: service.token(`${prefix}u${u}`, { scope: SCOPE, groups: mine.map((group) => prefix + group) }),
            pageSizes,
            seen: [] as { name: string }[],
            cursor: undefined as string | undefined,
            done: false,
            pages: 0,
          };
        });
        // Each turn takes the next page of one caller's walk; afterwards every walk is finished.
        const order = [...turns, ...walks.flatMap((_, u) => Array<number>(40).fill(u))];
        for (const u of order) {
          const walk = walks[u];
          if (walk === undefined || walk.done) continue;
          const limit = walk.pageSizes[walk.pages++ % walk.pageSizes.length] ?? 1;
          const query = new URLSearchParams({ limit: String(limit), ...(walk.cursor && { cursor: walk.cursor }) });
          const reply = await call(
            httpApiEvent({ query: query.toString(), headers: { authorization: `Bearer ${walk.token}` } }),
          );
          expect(reply.status).toBe(200);
          const body = reply.body as { name: string }[];
          for (const { name } of body) expect(walk.granted).toContain(name.slice(0, name.lastIndexOf('|')));
          walk.seen.push(...body);
          walk.cursor = nextCursor(reply);
          walk.done = walk.cursor === undefined;
        }
        for (const walk of walks) expect(walk.seen).toEqual(walk.expected);
      }),
      CACHE_RUNS,
    );
  });
});

// Two fixed callers whose plant names say whose they are, for the random-request property.
const OWNERS = ['alice', 'bob'] as const;
const SEEDED: PlantItem[] = OWNERS.flatMap((owner) =>
  Array.from({ length: 7 }, (_, i) => ({ owner, id: `p${i}`, name: `${owner}-${i}` })),
);

type Credential = 'valid' | 'no-scope' | 'expired' | 'mutated' | 'garbage' | 'none';
const credentialArb = fc.record({
  // Weighted so that every status is reached often, not just 401.
  kind: fc.oneof(
    { arbitrary: fc.constant<Credential>('valid'), weight: 6 },
    fc.constantFrom<Credential>('no-scope', 'expired', 'mutated', 'garbage', 'none'),
  ),
  owner: fc.constantFrom(...OWNERS),
  scheme: fc.oneof(
    { arbitrary: fc.constant('Bearer '), weight: 6 },
    fc.constantFrom('bearer  ', 'BEARER ', 'Basic ', '', 'Bearer'),
  ),
  garbage: text(0, 40),
  at: fc.nat(),
});

type CredentialCase = typeof credentialArb extends fc.Arbitrary<infer T> ? T : never;

/** Authorization value; `authentic` is true only for a valid, scoped, well-framed token. */
function authorizationFor(c: CredentialCase) {
  if (c.kind === 'none') return { value: undefined, authentic: false };
  if (c.kind === 'garbage') return { value: c.scheme + c.garbage, authentic: false };
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { scope: SCOPE };
  if (c.kind === 'no-scope') delete claims.scope;
  if (c.kind === 'expired') claims.exp = now - 5;
  let token = service.token(c.owner, claims);
  if (c.kind === 'mutated') {
    // Change one character inside the payload (never its last, whose low bits are padding).
    const [head = '', payload = '', sig = ''] = token.split('.');
    const i = c.at % (payload.length - 1);
    const swapped = payload[i] === 'A' ? 'B' : 'A';
    token = `${head}.${payload.slice(0, i)}${swapped}${payload.slice(i + 1)}.${sig}`;
  }
  const framed = c.scheme.trim().toLowerCase() === 'bearer' && c.scheme.endsWith(' ');
  return { value: c.scheme + token, authentic: framed && c.kind === 'valid' };
}

const queryValueArb = fc.oneof(
  fc.integer({ min: -5, max: 12 }).map(String),
  fc.constantFrom('2147483647', '2147483648', '', '%00', '1e3', '0x5'),
  text(0, 20),
  fc.constantFrom('cursor-of-alice', 'cursor-of-bob'),
);
const queryArb = fc.oneof(
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'cursor', 'owner', 'sub'), text(0, 8)), queryValueArb), {
      maxLength: 4,
    })
    .map((pairs) => ({ pairs, raw: undefined })),
  text(0, 60).map((raw) => ({ pairs: [], raw })),
);
const headerNameArb = fc.oneof(
  fc.constantFrom('host', 'x-forwarded-proto', 'x-user', 'cookie', 'x-amzn-oidc-identity', 'x-forwarded-for'),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
);
const headersArb = fc
  .dictionary(headerNameArb, text(0, 30), { maxKeys: 4 })
  .map((headers) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'authorization')));

describe('random requests', () => {
  const cursors: Record<string, string> = {};
  const statuses = new Map<number, number>();
  beforeAll(async () => {
    await service.seed(SEEDED);
    for (const owner of OWNERS) {
      const first = await call(httpApiEvent({ query: 'limit=2', headers: { authorization: bearerFor(owner) } }));
      cursors[`cursor-of-${owner}`] = nextCursor(first) ?? '';
    }
  });

  it(`answer only 200/400/401/403, match openapi.yaml, and show only the caller's plants (${REQUEST_RUNS} runs)`, async () => {
    await check(
      fc.asyncProperty(credentialArb, queryArb, headersArb, fc.boolean(), async (credential, query, extra, rest) => {
        const { value, authentic } = authorizationFor(credential);
        const pairs = query.pairs.map(([k, v]) => [k, cursors[v] ?? v] as [string, string]);
        const raw = query.raw ?? new URLSearchParams(pairs).toString();
        const headers = { ...extra, ...(value !== undefined && { authorization: value }) };
        // service.call throws unless the response matches openapi.yaml.
        const reply = await call(rest ? restApiEvent({ query: raw, headers }) : httpApiEvent({ query: raw, headers }));

        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        expect([200, 400, 401, 403]).toContain(reply.status);
        if (!authentic) expect([401, 403]).toContain(reply.status);
        if (reply.status === 200) {
          for (const plant of reply.body as { name: string }[]) expect(plant.name).toMatch(`${credential.owner}-`);
        }
      }),
      REQUEST_RUNS,
    );
    // The generators must reach every outcome, or the property proves little.
    for (const status of [200, 400, 401, 403]) expect(statuses.get(status)).toBeGreaterThan(REQUEST_RUNS / 50);
  });
});
