// The data CLI's import: a checked file written in batches, with a progress bar for big files.

import { readFileSync } from 'node:fs';
import { SingleBar } from 'cli-progress';
import { newPlantId } from '../../handlers/lib/plant-item.ts';
import { formatOf, type Problem, parsePlantFile } from '../data/import-file.ts';
import { batchWrite, putRequest } from '../store/batch-write.ts';
import { storedItem } from '../store/table.ts';
import { escapeControls, unescaped } from '../terminal-text.ts';
import { UsageError } from './args.ts';
import type { Command } from './plant-commands.ts';

/** Files with at least this many rows get a progress bar (on a terminal). */
const PROGRESS_MIN_ROWS = 500;
const MAX_PROBLEMS_SHOWN = 50;

/** `file:line: message`, with the array element for JSON arrays (`[2]`, counted from 0). */
export const formatProblem = (path: string, { line, element, message }: Problem) =>
  `${path}:${line}: ${element === undefined ? '' : `element [${element}]: `}${message}`;

const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
};

/** The file's text, or an error that says in words why it can't be read (not a bare ENOENT). */
function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new Error(`Cannot read ${path}: ${(code && READ_ERRORS[code]) ?? message}`);
  }
}

export const importFile: Command = async ([path, ...extra], flags) => {
  if (!path || extra.length > 0) throw new UsageError('import takes one file');
  const format = formatOf(path);
  if (!format) throw new UsageError(`Cannot tell the format of ${path}: name it .csv, .json or .jsonl`);
  const { rows, problems } = parsePlantFile(readText(path), format);
  for (const problem of problems.slice(0, MAX_PROBLEMS_SHOWN))
    console.error(escapeControls(formatProblem(path, problem)));
  if (problems.length > MAX_PROBLEMS_SHOWN) {
    console.error(`... and ${problems.length - MAX_PROBLEMS_SHOWN} more problems`);
  }
  if (problems.length > 0 && !flags['skip-invalid']) {
    // With no valid row, --skip-invalid would import nothing: only fixing the file helps.
    const next =
      rows.length === 0
        ? 'Fix them: no row is valid'
        : `Fix them, or pass --skip-invalid to import the ${rows.length} valid row(s)`;
    console.error(`Nothing imported: ${problems.length} problem(s). ${next}.`);
    return 1;
  }
  return async (target) => {
    const bar =
      process.stderr.isTTY && rows.length >= PROGRESS_MIN_ROWS
        ? new SingleBar({
            // Its cursor moves are terminal sequences of its own, not text to escape.
            stream: unescaped(process.stderr),
            format: 'Importing [{bar}] {percentage}% {value}/{total} plants, ETA {eta_formatted}',
          })
        : undefined;
    bar?.start(rows.length, 0);
    // One user at a time: a deployed pool looks each up, and Cognito throttles bursts.
    const subs = new Map<string, string>();
    for (const { row } of rows) {
      if (row.owner !== undefined && !subs.has(row.owner)) subs.set(row.owner, await target.ownerSub(row.owner));
    }
    const items = rows.map(({ row }) => {
      const owned = row.owner === undefined ? row : { ...row, owner: subs.get(row.owner) ?? row.owner };
      return putRequest(storedItem({ ...owned, id: row.id ?? newPlantId() }));
    });
    await batchWrite(target.client, target.tableName, items, { onProgress: (done) => bar?.update(done) });
    bar?.stop();
    const skipped = problems.length > 0 ? ` (invalid rows skipped: ${new Set(problems.map((p) => p.line)).size})` : '';
    const withoutId = rows.filter(({ row }) => row.id === undefined).length;
    const byId = rows.length - withoutId;
    const replaced = byId > 0 ? `; ${byId} by id, each replacing any plant with that id` : '';
    console.log(`Imported ${rows.length} plant(s)${skipped}${replaced}`);
    if (withoutId > 0) {
      // Said every time: importing the same file twice is the usual way to get duplicates.
      console.error(
        `${withoutId} row(s) had no id and got new ones: importing this file again adds them again. ` +
          'Give rows an id column to make a re-import replace them instead.',
      );
    }
    return 0;
  };
};
