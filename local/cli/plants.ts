// `npm run plants -- add|import|list|remove ...`: manage plants in the local store or a real table.

import { escapeControls } from '../terminal-text.ts';
import { UsageError } from './args.ts';
import { connect } from './connect.ts';
import { importFile } from './import-command.ts';
import { add, list, remove } from './plant-commands.ts';
import { runCli } from './shell.ts';

const USAGE = `Usage: npm run plants -- <command> [options]

  add <owner> <name> [--tag TAG]         add one of a user's plants (owner: the user's sub)
  add --group GROUP <name> [--tag TAG]   add one of a group's plants, seen by every member
  import <file.csv|file.json|file.jsonl> [--skip-invalid]
                                         add rows of owner (or group), name, tag and id, none if any
                                         row is invalid unless --skip-invalid; a row with an id
                                         replaces that plant, one without gets a new id each time
  list [owner | --group GROUP] [--json]  list plants (everyone's when neither is given)
  list <owner> --groups G,H              what the API shows the owner with a token naming groups G
                                         and H: their own plants, then each group's
  remove <owner> <id>... | <owner> --all
  remove --group GROUP <id>... | --group GROUP --all
                                         remove plants by id, or all of one owner's or group's;
                                         exits 1 when an id was not found

Store (default: the running local server's; every command prints the one it used on stderr):
  --port N             the local server on port N
  --data-dir DIR       the embedded store persisted in DIR (through the server that has it open, if any)
  --endpoint URL       an external DynamoDB endpoint (or DYNAMODB_ENDPOINT)
  --deployed           the deployed stack's table, with your AWS credentials; <owner> is a user of its
                       pool (alice: alice@example.com). --outputs-file F, --env NAME: as for npm run token
  --table NAME         table name (or PLANTS_TABLE_NAME; default plants)
  --region REGION      region (or AWS_REGION; default us-east-1)`;

const OPTIONS = {
  tag: { type: 'string' },
  group: { type: 'string' },
  groups: { type: 'string' },
  'skip-invalid': { type: 'boolean' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  endpoint: { type: 'string' },
  deployed: { type: 'boolean' },
  'outputs-file': { type: 'string' },
  env: { type: 'string' },
  table: { type: 'string' },
  region: { type: 'string' },
} as const;

process.exitCode = await runCli(
  { usage: USAGE, options: OPTIONS, positionals: true },
  async ({ values: flags, positionals }) => {
    const [command, ...args] = positionals;
    const run = { add, import: importFile, list, remove }[command as 'add' | 'import' | 'list' | 'remove'];
    if (!run) throw new UsageError(command ? `Unknown command "${command}"` : 'Give a command');
    // A file is read and checked before any store is opened: a bad file costs no connection.
    const prepared = await run(args, flags);
    if (typeof prepared === 'number') return prepared;
    const target = await connect(flags, process.env);
    console.error(escapeControls(`Store: ${target.description}`));
    try {
      return await prepared(target);
    } finally {
      await target.close();
    }
  },
);
