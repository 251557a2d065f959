// `npx cdk synth` of the app into a folder, as `cdk deploy` would synthesize it with the same -c flags.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CDK_CLI = join(REPO_ROOT, 'node_modules', 'aws-cdk', 'bin', 'cdk');

/** Thrown with the synth's own output, which says what went wrong (a bad -c flag, a build error). */
export class SynthError extends Error {
  override name = 'SynthError';
}

/** Synthesizes into `outdir` with each `key=value` of `context` as a -c flag. */
export async function cdkSynth(outdir: string, context: string[]): Promise<void> {
  const flags = context.flatMap((pair) => ['-c', pair]);
  try {
    await run(process.execPath, [CDK_CLI, 'synth', '--quiet', '--output', outdir, ...flags], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new SynthError(`npx cdk synth failed:\n${`${stdout}\n${stderr}`.trim()}`);
  }
}
