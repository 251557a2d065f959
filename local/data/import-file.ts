// Plant rows to import from CSV, JSON or JSON Lines, every problem reported with its line.

import { parse as parseCsv } from 'csv-parse/sync';
import { getNodeValue, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { type PlantRow, ROW_FIELDS, validateRow } from './plant-row.ts';

export interface Problem {
  line: number;
  /** Index of the JSON array element (from 0), which the line alone cannot tell in a one-line file. */
  element?: number;
  message: string;
}

type FileFormat = 'csv' | 'json' | 'jsonl';

export function formatOf(path: string): FileFormat | undefined {
  const extension = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (extension === 'ndjson') return 'jsonl';
  return extension === 'csv' || extension === 'json' || extension === 'jsonl' ? extension : undefined;
}

export function parsePlantFile(text: string, format: FileFormat) {
  const file = { rows: [] as { line: number; row: PlantRow }[], problems: [] as Problem[] };
  const seen = new Map<string, number>();
  const add = (line: number, value: unknown, element?: number) => {
    const at = element === undefined ? { line } : { line, element };
    const { row, errors } = validateRow(value);
    // One file naming one plant twice would write it twice in one batch, which DynamoDB refuses.
    const key = row?.id === undefined ? undefined : JSON.stringify([row.owner, row.group, row.id]);
    const first = key === undefined ? undefined : seen.get(key);
    if (first !== undefined) errors.push(`id "${row?.id}" repeats line ${first} for the same owner or group`);
    else if (key !== undefined) seen.set(key, line);
    if (row && first === undefined) file.rows.push({ line, row });
    for (const message of errors) file.problems.push({ ...at, message });
  };
  if (text.trim() === '') file.problems.push({ line: 1, message: 'the file is empty' });
  else if (format === 'csv') readCsv(text, add, file.problems);
  else if (format === 'jsonl') readJsonLines(text, add, file.problems);
  else readJsonArray(text, add, file.problems);
  file.problems.sort((a, b) => a.line - b.line);
  return file;
}

type Add = (line: number, value: unknown, element?: number) => void;

const EXPECTED_COLUMNS = 'names the columns: owner (or group), name, and optional tag and id';

function readCsv(text: string, add: Add, problems: Problem[]): void {
  let headerOk = true;
  let columns: string[] = [];
  const records = parseCsv(text, {
    bom: true,
    trim: true,
    skip_empty_lines: true,
    info: true,
    // A missing trailing tag cell is a row without a tag; an extra cell is an error.
    relax_column_count_less: true,
    columns: (header: string[]) => {
      const missing = [
        !header.includes('name') && 'name',
        !header.includes('owner') && !header.includes('group') && 'owner or group',
      ].filter(Boolean);
      const unknown = header.filter((column) => !(ROW_FIELDS as readonly string[]).includes(column));
      if (missing.length > 0 || unknown.length > 0) {
        headerOk = false;
        const detail = [
          missing.length > 0 && `missing: ${missing.join(', ')}`,
          unknown.length > 0 && `unknown: ${unknown.join(', ')}`,
        ];
        problems.push({
          line: 1,
          message: `the header row ${EXPECTED_COLUMNS} (${detail.filter(Boolean).join('; ')})`,
        });
      }
      columns = header;
      return header;
    },
    skip_records_with_error: true,
    on_skip: (error) => {
      const cells = (error as { record?: unknown[] } | undefined)?.record?.length;
      problems.push({
        line: Number(error?.lines ?? 0),
        message:
          error?.code === 'CSV_RECORD_INCONSISTENT_COLUMNS' && cells !== undefined
            ? `${cells} cells, but the header row names ${columns.length} columns (${columns.join(',')}); quote a cell that holds a comma`
            : (error?.message.replace(/ on line \d+$/, '') ?? 'unreadable record'),
      });
    },
  }) as unknown as { info: { lines: number }; record: Record<string, string> }[];
  if (headerOk) for (const { info, record } of records) add(info.lines, record);
}

function readJsonLines(text: string, add: Add, problems: Problem[]): void {
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      add(index + 1, JSON.parse(line));
    } catch (error) {
      problems.push({ line: index + 1, message: `not valid JSON (${(error as Error).message})` });
    }
  });
}

function readJsonArray(text: string, add: Add, problems: Problem[]): void {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const lineOf = lineCounter(text);
  if (errors.length > 0 || !root) {
    for (const error of errors)
      problems.push({ line: lineOf(error.offset), message: `JSON syntax: ${printParseErrorCode(error.error)}` });
    return;
  }
  if (root.type !== 'array')
    return void problems.push({
      line: lineOf(root.offset),
      message: 'expected a JSON array of {owner (or group), name, tag, id} objects',
    });
  for (const [element, node] of (root.children ?? []).entries()) add(lineOf(node.offset), getNodeValue(node), element);
}

/** Line number (from 1) of each offset; offsets must come in increasing order, so one pass suffices. */
function lineCounter(text: string): (offset: number) => number {
  let position = 0;
  let line = 1;
  return (offset) => {
    for (; position < offset && position < text.length; position++) if (text[position] === '\n') line++;
    return line;
  };
}
