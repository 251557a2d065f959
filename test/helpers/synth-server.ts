// The test run's one synthesizing process. In jest every test file loads its modules afresh, and a
// file's first synth loads aws-cdk-lib's constructs (about 5 s of CPU); here, in plain Node as the CDK
// CLI runs `node infra/app.ts`, they load once a run and each further context takes a fraction of a
// second. Started by test/global-setup.ts, stopped by global-teardown.ts, or by itself once jest is gone.
//
//   node test/helpers/synth-server.ts <cache folder> <port file>

import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { synthAccessApp } from './access-stack.ts';
import { type Kept, keyOf, type Recipe, type SynthInput, synthApp } from './cdk.ts';

const [cacheDir = '', portFile = ''] = process.argv.slice(2);
if (!cacheDir || !portFile) throw new Error('usage: synth-server.ts <cache folder> <port file>');

const RECIPES: Record<Recipe, (outdir: string, input: SynthInput) => Promise<Kept>> = {
  app: synthApp,
  access: (outdir, { context }) => synthAccessApp(outdir, context as Record<string, string>),
};

// One promise per key: two test files asking for the same synth at once share it. A context the app
// refuses (SettingsError) is refused again from memory; any other failure is tried afresh next time.
const made = new Map<string, Promise<Kept>>();
function synthOnce(recipe: Recipe, input: SynthInput): Promise<Kept> {
  const base = join(cacheDir, keyOf(recipe, input));
  let kept = made.get(base);
  if (!kept) {
    kept = RECIPES[recipe](`${base}.out`, input);
    kept.catch((error: Error) => {
      if (error.name !== 'SettingsError') made.delete(base);
    });
    made.set(base, kept);
  }
  return kept;
}

const server = createServer(async (request, response) => {
  const recipe = request.url?.slice(1) as Recipe;
  try {
    if (!Object.hasOwn(RECIPES, recipe)) throw new Error(`no recipe "${recipe}"`);
    const input = JSON.parse(Buffer.concat(await Array.fromAsync(request)).toString()) as SynthInput;
    const kept = await synthOnce(recipe, input);
    response.end(JSON.stringify({ kept }));
  } catch (error) {
    // A context the app refuses is an answer too (the test asserts its message); a fault in the
    // stack's code comes with its stack trace.
    const { name, message, stack } = error as Error;
    response.writeHead(422, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ name, message, stack }));
  }
});
// Written whole, then renamed: the set-up waits for the file and must never read half of it.
server.listen(0, '127.0.0.1', () => {
  writeFileSync(`${portFile}.partial`, String((server.address() as AddressInfo).port));
  renameSync(`${portFile}.partial`, portFile);
  // The default context first, while jest starts its workers: most stack tests read it.
  synthOnce('app', { context: {}, env: {}, bundle: false }).catch(() => {});
});

// Should jest die without its teardown, the server goes too, and the run's folder with it.
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    rmSync(dirname(portFile), { recursive: true, force: true });
    process.exit(0);
  }
}, 1000).unref();
