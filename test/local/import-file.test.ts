// Reading import files: every row checked, every problem with its line number.

import { describe, expect, it } from '@jest/globals';
import { MAX_PLANT_ITEM_BYTES } from '../../handlers/lib/plant-item.ts';
import { formatOf, parsePlantFile } from '../../local/data/import-file.ts';
import { validateRow } from '../../local/data/plant-row.ts';

describe('parsePlantFile, CSV', () => {
  it('reads rows by header name, an empty or missing tag meaning none', () => {
    const { rows, problems } = parsePlantFile('name,owner,tag\nRose,alice,flower\nIvy,bob,\nFern,bob\n', 'csv');
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { line: 2, row: { owner: 'alice', name: 'Rose', tag: 'flower' } },
      { line: 3, row: { owner: 'bob', name: 'Ivy' } },
      { line: 4, row: { owner: 'bob', name: 'Fern' } },
    ]);
  });

  it('reports each bad row with its line, in line order, and keeps the good ones apart', () => {
    const text = 'owner,name,tag\nalice,Rose,\n\nbob,,x\n,Fern,\ncarol,Cactus,desert,extra\ndave,"Two\nlines",\n';
    const { rows, problems } = parsePlantFile(text, 'csv');
    expect(rows.map((r) => r.line)).toEqual([2]);
    expect(problems).toEqual([
      { line: 4, message: 'name is required' },
      { line: 5, message: 'owner (or group) is required' },
      {
        line: 6,
        message: '4 cells, but the header row names 3 columns (owner,name,tag); quote a cell that holds a comma',
      },
      { line: 8, message: 'name must not contain control characters (line breaks, tabs)' },
    ]);
  });

  it('refuses a header without owner (or group) and name, or with unknown columns, naming the expected ones', () => {
    expect(parsePlantFile('owner,title\nalice,Rose\n', 'csv')).toEqual({
      rows: [],
      problems: [
        {
          line: 1,
          message:
            'the header row names the columns: owner (or group), name, and optional tag and id (missing: name; unknown: title)',
        },
      ],
    });
    expect(parsePlantFile('name,tag\nRose,\n', 'csv').problems).toEqual([
      expect.objectContaining({ line: 1, message: expect.stringContaining('(missing: owner or group)') }),
    ]);
  });

  it("reads a group column as an alternative to owner, and an id column as the plant's own id", () => {
    const text =
      'owner,group,name,id\nalice,,Rose,r1\n,greenhouse,Tomato,t1\n,greenhouse,Basil,\nbob,greenhouse,Ivy,\n';
    const { rows, problems } = parsePlantFile(text, 'csv');
    expect(rows).toEqual([
      { line: 2, row: { owner: 'alice', name: 'Rose', id: 'r1' } },
      { line: 3, row: { group: 'greenhouse', name: 'Tomato', id: 't1' } },
      { line: 4, row: { group: 'greenhouse', name: 'Basil' } },
    ]);
    expect(problems).toEqual([{ line: 5, message: 'give owner or group, not both' }]);
  });

  it('refuses an id that a line before it gave to the same owner', () => {
    const text = 'owner,name,id\nalice,Rose,r1\nbob,Ivy,r1\nalice,Rose again,r1\n';
    expect(parsePlantFile(text, 'csv').problems).toEqual([
      { line: 4, message: 'id "r1" repeats line 2 for the same owner or group' },
    ]);
  });
});

describe('parsePlantFile, JSON', () => {
  it('gives each array element the line it starts on', () => {
    const text = '[\n  {"owner": "alice", "name": "Rose"},\n\n  {"owner": "bob",\n   "name": "Ivy", "tag": "vine"}\n]';
    expect(parsePlantFile(text, 'json')).toEqual({
      rows: [
        { line: 2, row: { owner: 'alice', name: 'Rose' } },
        { line: 4, row: { owner: 'bob', name: 'Ivy', tag: 'vine' } },
      ],
      problems: [],
    });
  });

  it('reports wrong types, unknown fields and non-objects by line', () => {
    const text =
      '[\n{"owner": "a", "name": 3},\n{"owner": "a", "name": "b", "colour": "red"},\n"Rose",\n{"owner": "a", "name": "b", "tag": null}\n]';
    const { rows, problems } = parsePlantFile(text, 'json');
    expect(rows).toEqual([{ line: 5, row: { owner: 'a', name: 'b' } }]);
    expect(problems).toEqual([
      { line: 2, element: 0, message: 'name must be a non-empty string' },
      { line: 3, element: 1, message: 'unknown field "colour" (allowed: owner, group, name, tag, id)' },
      { line: 4, element: 2, message: 'expected an object with owner (or group), name, and optional tag and id' },
    ]);
  });

  it('names the array element of each problem, which the line cannot tell in a one-line file', () => {
    const text = '[{"owner":"a","name":"b"},{"owner":"a"},{"group":"g","name":"c"},{"name":"d"}]';
    const { rows, problems } = parsePlantFile(text, 'json');
    expect(rows.map(({ row }) => row.name)).toEqual(['b', 'c']);
    expect(problems).toEqual([
      { line: 1, element: 1, message: 'name is required' },
      { line: 1, element: 3, message: 'owner (or group) is required' },
    ]);
  });

  it('reports syntax errors with their line, and a document that is not an array', () => {
    expect(parsePlantFile('[\n{"owner": "a",}\n]', 'json').problems).toEqual([
      { line: 2, message: 'JSON syntax: PropertyNameExpected' },
      { line: 2, message: 'JSON syntax: ValueExpected' },
    ]);
    expect(parsePlantFile('{"owner": "a", "name": "b"}', 'json').problems).toEqual([
      { line: 1, message: 'expected a JSON array of {owner (or group), name, tag, id} objects' },
    ]);
    expect(parsePlantFile('  ', 'json').problems).toEqual([{ line: 1, message: 'the file is empty' }]);
    expect(parsePlantFile('\n', 'csv').problems).toEqual([{ line: 1, message: 'the file is empty' }]);
  });

  it('reads JSON Lines one object per line', () => {
    const { rows, problems } = parsePlantFile('{"owner":"a","name":"b"}\n\n{"owner":\n', 'jsonl');
    expect(rows).toEqual([{ line: 1, row: { owner: 'a', name: 'b' } }]);
    expect(problems).toEqual([{ line: 3, message: expect.stringMatching(/^not valid JSON/) }]);
  });
});

describe('validateRow', () => {
  it('trims values and bounds their size (owner: DynamoDB partition key limit)', () => {
    expect(validateRow({ owner: ' alice ', name: ' Rose ' })).toEqual({
      row: { owner: 'alice', name: 'Rose' },
      errors: [],
    });
    expect(validateRow({ owner: '€'.repeat(682), name: 'x' }).errors).toEqual(['owner is longer than 2043 bytes']);
    // A page's read budget holds only plants this small (infra/ceiling.ts): the item as DynamoDB sizes it.
    const named = (length: number) => validateRow({ owner: 'a', id: 'p1', name: 'x'.repeat(length) });
    const overhead = Buffer.byteLength('owneruser#aidp1name');
    expect(named(MAX_PLANT_ITEM_BYTES - overhead).errors).toEqual([]);
    expect(named(MAX_PLANT_ITEM_BYTES - overhead + 1).errors).toEqual([
      `plant is ${MAX_PLANT_ITEM_BYTES + 1} bytes as stored (owner, id, name and tag together); at most ${MAX_PLANT_ITEM_BYTES}`,
    ]);
    const unnamed = validateRow({ owner: 'a', name: 'x'.repeat(MAX_PLANT_ITEM_BYTES) }).errors;
    expect(unnamed).toEqual([expect.stringMatching(/^plant is \d+ bytes as stored/)]);
  });
});

it('formatOf tells the format from the extension', () => {
  expect(['a.csv', 'b.JSON', 'c.jsonl', 'd.ndjson', 'e.txt', 'f'].map(formatOf)).toEqual([
    'csv',
    'json',
    'jsonl',
    'jsonl',
    undefined,
    undefined,
  ]);
});
