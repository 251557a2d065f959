// `npm run bench:bill -w lab`: the bill recomputed from a results file without measuring, said to be a
// model where it scales, and written back with --update-reference.

import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from '@jest/globals';
import type { BenchResults } from '../results.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-bill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const billCli = (...args: string[]) => promisify(execFile)(process.execPath, ['bill-cli.ts', ...args]);

it('says the memory table is scaled from the run, not measured on Lambda', async () => {
  const { stdout } = await billCli();
  const lines = stdout.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| memoryMb |'));
  expect(lines[header - 2]).toMatch(/scaled from this run .*not measured on Lambda/);
});

it('writes the recomputed bill back with --update-reference, the measured figures as they were', async () => {
  // Prepare: the reference with a stale worst hour.
  const file = join(dir, 'results.json');
  copyFileSync('results.json', file);
  const reference = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  writeFileSync(file, JSON.stringify({ ...reference, cost: { ...reference.cost, worstHour: {} } }));

  // Act
  await billCli(file, '--update-reference');

  // Assess: the committed reference is what the code computes today (lab/test/doc-figures.test.ts).
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(reference);
  await expect(billCli('10e6', file, '--update-reference')).rejects.toMatchObject({ code: 2 });
});
