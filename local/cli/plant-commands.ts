// The data CLI's add, list and remove.

import { DeleteCommand, type DynamoDBDocumentClient, paginateQuery, paginateScan } from '@aws-sdk/lib-dynamodb';
import { accessiblePartitions, groupPartition, userPartition } from '../../handlers/lib/partitions.ts';
import { newPlantId } from '../../handlers/lib/plant-item.ts';
import { validateRow, whoseOf } from '../data/plant-row.ts';
import { batchWrite, deleteRequest, putRequest } from '../store/batch-write.ts';
import { type PlantItem, plantFromItem, storedItem } from '../store/table.ts';
import { escapeControls } from '../terminal-text.ts';
import { type Flags, UsageError } from './args.ts';
import type { Target } from './connect.ts';
import { parseGroups } from './local-token.ts';

type CommandFlags = Flags<'tag' | 'group' | 'groups', 'all' | 'json' | 'skip-invalid'>;

/** Checks the command line, then returns the work to do on a store (or an exit code at once). */
export type Command = (args: string[], flags: CommandFlags) => Promise<((target: Target) => Promise<number>) | number>;

/** Deletes sent at once: DynamoDB's batch size, each a conditional delete that says if it found one. */
const DELETE_CONCURRENCY = 25;

/** `<owner> rest...`, or `--group G rest...`: whose plants, and the remaining arguments. */
function whoseAndRest(args: string[], flags: CommandFlags): [{ owner: string } | { group: string }, string[]] {
  if (flags.group !== undefined) return [{ group: flags.group }, args];
  const [owner, ...rest] = args;
  if (!owner) throw new UsageError('Name the owner, or a group with --group GROUP');
  return [{ owner }, rest];
}

/** The partition key on this store: a user named by a deployed pool's username is looked up. */
const partitionOf = async (target: Target, whose: { owner: string } | { group: string }) =>
  'group' in whose ? groupPartition(whose.group) : userPartition(await target.ownerSub(whose.owner));

export const add: Command = async (args, flags) => {
  const [whose, [name, ...extra]] = whoseAndRest(args, flags);
  if (extra.length > 0)
    throw new UsageError('add takes <owner> <name> or --group GROUP <name>; quote a name with spaces');
  const { row, errors } = validateRow({ ...whose, name, tag: flags.tag });
  if (!row) throw new UsageError(errors.join('; '));
  return async (target) => {
    const id = newPlantId();
    const owned = row.owner === undefined ? row : { ...row, owner: await target.ownerSub(row.owner) };
    await batchWrite(target.client, target.tableName, [putRequest(storedItem({ ...owned, id } as PlantItem))]);
    console.log(escapeControls(`Added ${whoseOf(row)}'s "${row.name}" with id ${id}`));
    return 0;
  };
};

export const list: Command = async (args, flags) => {
  const [owner, ...extra] = args;
  if (extra.length > 0 || (owner !== undefined && flags.group !== undefined)) {
    throw new UsageError('list takes at most one owner, or --group GROUP');
  }
  if (flags.groups !== undefined && owner === undefined) {
    throw new UsageError('--groups goes with an owner: list <owner> --groups G,H lists what the API shows them');
  }
  // Deduplicated and sorted as the API reads a token's groups (handlers/lib/groups.ts).
  const groups = flags.groups === undefined ? undefined : [...new Set(parseGroups(flags.groups))].sort();
  return async (target) => {
    const partitions =
      owner !== undefined
        ? accessiblePartitions({ sub: await target.ownerSub(owner), groups: groups ?? [] })
        : flags.group !== undefined
          ? [groupPartition(flags.group)]
          : [undefined];
    const items: PlantItem[] = [];
    for (const partition of partitions) items.push(...(await readPlants(target.client, target.tableName, partition)));
    // JSON: the shell writes C1 controls, separators and bidi overrides in strings as \u escapes.
    if (flags.json) console.log(JSON.stringify(items.map(inColumnOrder), null, 2));
    else {
      console.log(['owner', 'group', 'id', 'name', 'tag'].join('\t'));
      for (const { owner, group, id, name, tag } of items) {
        // One row a plant, whatever the store holds (another tool may have written a tab or an ESC).
        console.log([owner ?? '', group ?? '', id, name, tag ?? ''].map(escapeControls).join('\t'));
      }
    }
    console.error(escapeControls(`${items.length} plant(s) ${listed(owner, flags.group, groups)}`));
    return 0;
  };
};

/** Which partitions a list read, in its order, and what the API shows that the list did not. */
function listed(owner: string | undefined, group: string | undefined, groups: string[] | undefined): string {
  if (group !== undefined) return `of group ${group}`;
  if (owner === undefined) return 'in every partition (a Scan of the table)';
  if (groups === undefined) {
    return `of ${owner}'s own; the API also shows the plants of the groups ${owner}'s token names: add --groups G,H to list those too`;
  }
  return `of ${owner}'s own, then of group ${groups.join(', then of group ')}: what the API shows ${owner} with a token naming these groups`;
}

const COLUMNS = ['owner', 'group', 'id', 'name', 'tag'];

/** Keys in the table's column order, then any others by name: DynamoDB keeps no attribute order. */
function inColumnOrder(item: PlantItem): Record<string, unknown> {
  const others = Object.keys(item)
    .filter((key) => !COLUMNS.includes(key))
    .sort();
  const present = [...COLUMNS, ...others].filter((key) => item[key] !== undefined);
  return Object.fromEntries(present.map((key) => [key, item[key]]));
}

export const remove: Command = async (args, flags) => {
  const [whose, ids] = whoseAndRest(args, flags);
  if ((ids.length === 0) === !flags.all) throw new UsageError('remove takes ids, or --all');
  const who = whoseOf(whose);
  return async (target) => {
    const { client, tableName } = target;
    const partition = await partitionOf(target, whose);
    if (flags.all) {
      const keys = (await readPlants(client, tableName, partition)).map(({ id }) => ({ owner: partition, id }));
      await batchWrite(client, tableName, keys.map(deleteRequest));
      console.log(escapeControls(`Removed ${keys.length} plant(s) of ${who}`));
      return 0;
    }
    const missing = await deleteEach(client, tableName, partition, [...new Set(ids)]);
    console.log(
      escapeControls(`Removed ${new Set(ids).size - missing.length} plant(s) of ${who}; not found: ${missing.length}`),
    );
    if (missing.length > 0) console.error(escapeControls(`Not found for ${who}: ${missing.join(' ')}`));
    return missing.length > 0 ? 1 : 0;
  };
};

/** Deletes each id that exists; returns the ids that did not. */
async function deleteEach(client: DynamoDBDocumentClient, tableName: string, partition: string, ids: string[]) {
  const missing: string[] = [];
  for (let start = 0; start < ids.length; start += DELETE_CONCURRENCY) {
    const chunk = ids.slice(start, start + DELETE_CONCURRENCY);
    const deleted = await Promise.all(
      chunk.map(async (id) => {
        const { Attributes } = await client.send(
          new DeleteCommand({ TableName: tableName, Key: { owner: partition, id }, ReturnValues: 'ALL_OLD' }),
        );
        return Attributes !== undefined;
      }),
    );
    chunk.forEach((id, i) => {
      if (!deleted[i]) missing.push(id);
    });
  }
  return missing;
}

/** One partition's plants (a Query), or every plant (a Scan: an admin tool's read, never the API's). */
async function readPlants(client: DynamoDBDocumentClient, tableName: string, partition?: string) {
  const pages = partition
    ? paginateQuery(
        { client },
        {
          TableName: tableName,
          KeyConditionExpression: '#o = :o',
          ExpressionAttributeNames: { '#o': 'owner' },
          ExpressionAttributeValues: { ':o': partition },
        },
      )
    : paginateScan({ client }, { TableName: tableName });
  const items: PlantItem[] = [];
  for await (const page of pages) items.push(...(page.Items ?? []).map(plantFromItem));
  return items;
}
