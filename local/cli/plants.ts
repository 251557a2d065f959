// `npm run plants -- add|import|list|remove ...`: manage plants in the local store or a real table.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type DynamoDBDocumentClient, paginateQuery, paginateScan } from '@aws-sdk/lib-dynamodb';
import { SingleBar } from 'cli-progress';
import { userPartition } from '../../handlers/lib/partitions.ts';
import { batchWrite, deleteRequest, putRequest } from '../batch-write.ts';
import { newPlantId } from '../ids.ts';
import { formatOf, parsePlantFile, validateRow } from '../import-file.ts';
import { type PlantItem, plantFromItem, storedItem } from '../table.ts';
import { connect, type Target } from './connect.ts';

const USAGE = `Usage: npm run plants -- <command> [options]

  add <owner> <name> [--tag TAG]       add one plant
  import <file.csv|file.json|file.jsonl> [--skip-invalid]
                                       add {owner, name, tag} rows; nothing is written from a file
                                       with invalid rows unless --skip-invalid is given
  list [owner] [--json]                list plants (all owners when none is given)
  remove <owner> <id>... | <owner> --all
                                       remove plants by id, or all of an owner's plants

Store (default: the running local server's):
  --data-dir DIR       the embedded store persisted in DIR (when no server is running)
  --endpoint URL       an external DynamoDB endpoint (or DYNAMODB_ENDPOINT)
  --aws                the real DynamoDB table, with the AWS SDK's default credentials
  --table NAME         table name (or PLANTS_TABLE_NAME; default plants)
  --region REGION      region (or AWS_REGION; default us-east-1)`;

/** Files with at least this many rows get a progress bar (on a terminal). */
const PROGRESS_MIN_ROWS = 500;
const MAX_PROBLEMS_SHOWN = 50;

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tag: { type: 'string' },
    'skip-invalid': { type: 'boolean' },
    all: { type: 'boolean' },
    json: { type: 'boolean' },
    'data-dir': { type: 'string' },
    endpoint: { type: 'string' },
    aws: { type: 'boolean' },
    table: { type: 'string' },
    region: { type: 'string' },
    help: { type: 'boolean' },
  },
});
const [command, ...args] = positionals;

class UsageError extends Error {}

async function main(): Promise<number> {
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (command === 'import') return importFile(args);
  const run = { add, list, remove }[command as 'add' | 'list' | 'remove'];
  if (!run) throw new UsageError(command ? `Unknown command "${command}"` : 'Give a command');
  const target = await connect(flags, process.env);
  try {
    return await run(target, args);
  } finally {
    await target.close();
  }
}

async function add({ client, tableName }: Target, [owner, name, ...extra]: string[]): Promise<number> {
  if (extra.length > 0) throw new UsageError('add takes <owner> <name>; quote a name with spaces');
  const { row, errors } = validateRow({ owner, name, tag: flags.tag });
  if (!row) throw new UsageError(errors.join('; '));
  const id = newPlantId();
  await batchWrite(client, tableName, [putRequest(storedItem({ ...row, id }))]);
  console.log(`Added ${row.owner}'s "${row.name}" with id ${id}`);
  return 0;
}

async function importFile([path, ...extra]: string[]): Promise<number> {
  if (!path || extra.length > 0) throw new UsageError('import takes one file');
  const format = formatOf(path);
  if (!format) throw new UsageError(`Cannot tell the format of ${path}: name it .csv, .json or .jsonl`);
  const { rows, problems } = parsePlantFile(readFileSync(path, 'utf8'), format);
  for (const { line, message } of problems.slice(0, MAX_PROBLEMS_SHOWN)) console.error(`${path}:${line}: ${message}`);
  if (problems.length > MAX_PROBLEMS_SHOWN)
    console.error(`... and ${problems.length - MAX_PROBLEMS_SHOWN} more problems`);
  if (problems.length > 0 && !flags['skip-invalid']) {
    console.error(
      `Nothing imported: ${problems.length} problem(s). Fix them, or pass --skip-invalid to import the ${rows.length} valid row(s).`,
    );
    return 1;
  }
  const target = await connect(flags, process.env);
  try {
    const bar =
      process.stderr.isTTY && rows.length >= PROGRESS_MIN_ROWS
        ? new SingleBar({
            stream: process.stderr,
            format: 'Importing [{bar}] {percentage}% {value}/{total} plants, ETA {eta_formatted}',
          })
        : undefined;
    bar?.start(rows.length, 0);
    const items = rows.map(({ row }) => putRequest(storedItem({ ...row, id: newPlantId() })));
    await batchWrite(target.client, target.tableName, items, { onProgress: (done) => bar?.update(done) });
    bar?.stop();
    const skipped = problems.length > 0 ? ` (invalid rows skipped: ${new Set(problems.map((p) => p.line)).size})` : '';
    console.log(`Imported ${rows.length} plant(s) into ${target.description}${skipped}`);
    return 0;
  } finally {
    await target.close();
  }
}

async function list({ client, tableName }: Target, [owner, ...extra]: string[]): Promise<number> {
  if (extra.length > 0) throw new UsageError('list takes at most one owner');
  const items = await readPlants(client, tableName, owner);
  if (flags.json) {
    console.log(JSON.stringify(items, null, 2));
  } else {
    console.log(['owner', 'id', 'name', 'tag'].join('\t'));
    for (const { owner, id, name, tag } of items) console.log([owner, id, name, tag ?? ''].join('\t'));
  }
  console.error(`${items.length} plant(s)`);
  return 0;
}

async function remove({ client, tableName }: Target, [owner, ...ids]: string[]): Promise<number> {
  if (!owner || (ids.length === 0) === !flags.all) throw new UsageError('remove takes <owner> and either ids or --all');
  const keys = flags.all ? (await readPlants(client, tableName, owner)).map(({ id }) => id) : ids;
  await batchWrite(
    client,
    tableName,
    keys.map((id) => deleteRequest({ owner: userPartition(owner), id })),
  );
  console.log(`Removed ${keys.length} plant(s) of ${owner}`);
  return 0;
}

/** One owner's plants (a Query), or every plant (a Scan: an admin tool's read, never the API's). */
async function readPlants(client: DynamoDBDocumentClient, tableName: string, owner?: string): Promise<PlantItem[]> {
  const pages = owner
    ? paginateQuery(
        { client },
        {
          TableName: tableName,
          KeyConditionExpression: '#o = :o',
          ExpressionAttributeNames: { '#o': 'owner' },
          ExpressionAttributeValues: { ':o': userPartition(owner) },
        },
      )
    : paginateScan({ client }, { TableName: tableName });
  const items: PlantItem[] = [];
  for await (const page of pages) items.push(...(page.Items ?? []).map(plantFromItem));
  return items;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : `Error: ${(error as Error).message}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
