// Plant rows to import, from JSON (an array of objects, or JSON Lines) or CSV with a header row:
// every row is checked, and every problem is reported with its line number.

import { parse as parseCsv } from 'csv-parse/sync';
import { getNodeValue, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { userPartition } from '../handlers/lib/partitions.ts';

export interface PlantRow {
  owner: string;
  name: string;
  tag?: string;
}

export interface Problem {
  line: number;
  message: string;
}

export interface ParsedFile {
  rows: { line: number; row: PlantRow }[];
  problems: Problem[];
}

export type FileFormat = 'csv' | 'json' | 'jsonl';

const FIELDS = new Set(['owner', 'name', 'tag']);
/** DynamoDB's limit for a partition key value, less the partition's `user#` prefix. */
const MAX_OWNER_BYTES = 2048 - Buffer.byteLength(userPartition(''));
const MAX_TEXT_LENGTH = 1024;
// Names are one line of text: no line breaks or tabs to upset logs, CSV exports and terminals.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function formatOf(path: string): FileFormat | undefined {
  const extension = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (extension === 'ndjson') return 'jsonl';
  return extension === 'csv' || extension === 'json' || extension === 'jsonl' ? extension : undefined;
}

export function parsePlantFile(text: string, format: FileFormat): ParsedFile {
  const file: ParsedFile = { rows: [], problems: [] };
  const add = (line: number, value: unknown) => {
    const { row, errors } = validateRow(value);
    if (row) file.rows.push({ line, row });
    for (const message of errors) file.problems.push({ line, message });
  };
  if (text.trim() === '') file.problems.push({ line: 1, message: 'the file is empty' });
  else if (format === 'csv') readCsv(text, add, file.problems);
  else if (format === 'jsonl') readJsonLines(text, add, file.problems);
  else readJsonArray(text, add, file.problems);
  file.problems.sort((a, b) => a.line - b.line);
  return file;
}

/** The row, or every reason it is not one. */
export function validateRow(value: unknown): { row?: PlantRow; errors: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { errors: ['expected an object with owner, name and optional tag'] };
  }
  const fields = value as Record<string, unknown>;
  const errors = Object.keys(fields)
    .filter((key) => !FIELDS.has(key))
    .map((key) => `unknown field "${key}" (allowed: owner, name, tag)`);
  const text = (key: string, required: boolean): string | undefined => {
    const raw = fields[key];
    if (raw === undefined || raw === null || raw === '') {
      if (required) errors.push(`${key} is required`);
      return undefined;
    }
    const problem =
      typeof raw !== 'string' || raw.trim() === ''
        ? 'must be a non-empty string'
        : raw.trim().length > MAX_TEXT_LENGTH
          ? `is longer than ${MAX_TEXT_LENGTH} characters`
          : CONTROL_CHARACTERS.test(raw)
            ? 'must not contain control characters (line breaks, tabs)'
            : undefined;
    if (problem || typeof raw !== 'string') return void errors.push(`${key} ${problem}`);
    return raw.trim();
  };
  const owner = text('owner', true);
  const name = text('name', true);
  const tag = text('tag', false);
  if (owner && Buffer.byteLength(owner) > MAX_OWNER_BYTES) errors.push(`owner is longer than ${MAX_OWNER_BYTES} bytes`);
  if (errors.length > 0 || !owner || !name) return { errors };
  return { row: { owner, name, ...(tag && { tag }) }, errors };
}

type Add = (line: number, value: unknown) => void;

function readCsv(text: string, add: Add, problems: Problem[]): void {
  let headerOk = true;
  const records = parseCsv(text, {
    bom: true,
    trim: true,
    skip_empty_lines: true,
    info: true,
    // A missing trailing tag cell is a row without a tag; an extra cell is an error.
    relax_column_count_less: true,
    columns: (header: string[]) => {
      const missing = ['owner', 'name'].filter((column) => !header.includes(column));
      const unknown = header.filter((column) => !FIELDS.has(column));
      if (missing.length > 0 || unknown.length > 0) {
        headerOk = false;
        const detail = [
          missing.length > 0 && `missing: ${missing.join(', ')}`,
          unknown.length > 0 && `unknown: ${unknown.join(', ')}`,
        ];
        problems.push({
          line: 1,
          message: `the header row must be owner,name,tag (${detail.filter(Boolean).join('; ')})`,
        });
      }
      return header;
    },
    skip_records_with_error: true,
    on_skip: (error) => {
      problems.push({
        line: Number(error?.lines ?? 0),
        message: error?.message.replace(/ on line \d+$/, '') ?? 'unreadable record',
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
      message: 'expected a JSON array of {owner, name, tag} objects',
    });
  for (const node of root.children ?? []) add(lineOf(node.offset), getNodeValue(node));
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
