// The linter as `npm test` runs it (`biome ci .`, this repo's biome.json and .gitignore), over a tree
// holding what `npm run bench -w lab` and the other tools write: their git-ignored output is never linted.

import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from '@jest/globals';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const tree = mkdtempSync(join(tmpdir(), 'plant-store-lint-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(tree, path)), { recursive: true });
  writeFileSync(join(tree, path), text);
}

it('passes `biome ci` on a tree with lab/out/ and other git-ignored output in it', async () => {
  for (const file of ['biome.json', '.gitignore']) copyFileSync(join(REPO, file), join(tree, file));
  write('handlers/ok.ts', "export const ok = 'yes';\n");
  // As lab/run.ts writes them: JSON.stringify's layout, which Biome's formatter would change.
  const results = `${JSON.stringify({ tableSizes: [0, 10_000, 100_000], quick: false }, null, 2)}\n`;
  write('lab/out/results.json', results);
  write('lab/tmp/bundles/handler/index.mjs', 'var a=1;export{a}');
  write('.local/server.json', results);
  write('jest-results.json', results);

  const biome = join(REPO, 'node_modules', '.bin', 'biome');
  const run = await promisify(execFile)(biome, ['ci', '--colors=off', '.'], { cwd: tree }).catch((error) => error);

  expect({ code: run.code ?? 0, output: `${run.stdout}${run.stderr}` }).toEqual({
    code: 0,
    output: expect.stringMatching(/Checked 2 files/),
  });
});

it("fails `npm run lint` on an import across the rooms' boundaries or around a cycle, and only there", async () => {
  const rooms = mkdtempSync(join(tmpdir(), 'plant-store-rooms-'));
  try {
    for (const file of ['biome.json', '.gitignore']) copyFileSync(join(REPO, file), join(rooms, file));
    const importing = (path: string, from: string) => {
      mkdirSync(dirname(join(rooms, path)), { recursive: true });
      writeFileSync(join(rooms, path), `import { x } from '${from}';\n\nexport const y = x;\n`);
    };
    // Forbidden: the function or the client reaching out, the stack past the function's
    // environment and names, anything but lab/ and test/ reaching into local/, anything outside lab/
    // reaching into it.
    importing('handlers/lib/out.ts', '../../local/server/options.ts');
    importing('handlers/lib/auth/out.ts', '../../../infra/settings.ts');
    importing('client/out.ts', '../handlers/lib/loopback.ts');
    importing('infra/out.ts', '../handlers/lib/plants.ts');
    importing('deployed/out.ts', '../local/store/table.ts');
    importing('test/out.ts', '../lab/config.ts');
    importing('local/out.ts', '../lab/run.ts');
    // Allowed.
    importing('handlers/lib/auth/in.ts', '../config.ts');
    importing('infra/in.ts', '../handlers/lib/environment.ts');
    importing('infra/out2.ts', '../handlers/lib/config.ts');
    importing('local/cli/in.ts', '../../handlers/lib/loopback.ts');
    importing('lab/in.ts', '../local/store/table.ts');
    importing('test/local/in.ts', '../../local/cli/args.ts');

    // An import cycle, through a type-only import too: a shared rule without a home of its own.
    writeFileSync(join(rooms, 'local/cli/a.ts'), "import type { B } from './b.ts';\n\nexport type A = B;\n");
    writeFileSync(join(rooms, 'local/cli/b.ts'), "import type { A } from './a.ts';\n\nexport type B = A | 1;\n");

    const biome = join(REPO, 'node_modules', '.bin', 'biome');
    const run = await promisify(execFile)(biome, ['ci', '--colors=off', '.'], { cwd: rooms }).catch((error) => error);
    const output = `${run.stdout}${run.stderr}`;
    const flagged = [...output.matchAll(/^(\S+\.ts):\d+:\d+ lint\/style\/noRestrictedImports/gm)].map(
      ([, file]) => file,
    );

    const cycles = [...output.matchAll(/^(\S+\.ts):\d+:\d+ lint\/suspicious\/noImportCycles/gm)].map(
      ([, file]) => file,
    );
    expect(cycles.sort()).toEqual(['local/cli/a.ts', 'local/cli/b.ts']);
    expect(run.code).toBe(1);
    expect(flagged.sort()).toEqual([
      'client/out.ts',
      'deployed/out.ts',
      'handlers/lib/auth/out.ts',
      'handlers/lib/out.ts',
      'infra/out.ts',
      'infra/out2.ts',
      'local/out.ts',
      'test/out.ts',
    ]);
  } finally {
    rmSync(rooms, { recursive: true, force: true });
  }
});
