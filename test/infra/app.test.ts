// infra/app.ts as the CDK CLI runs it (context in CDK_CONTEXT_JSON): every synth says on stderr which
// kind of stack it made, since the CLI drops `-c dev` (no `=true`) with only a warning.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';

const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/** One synth of the app, bundling skipped; resolves with what it wrote on stderr. */
async function synthStderr(context: Record<string, unknown>): Promise<string> {
  const outdir = mkdtempSync(join(tmpdir(), 'plant-store-app-'));
  outdirs.push(outdir);
  const { stderr } = await promisify(execFile)(process.execPath, ['infra/app.ts'], {
    env: {
      ...process.env,
      CDK_OUTDIR: outdir,
      CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], ...context }),
    },
  });
  return stderr;
}

describe('the CDK app', () => {
  it('says in one line that the stack it synthesized is the retained one when -c dev=true was not given', async () => {
    // What `npx cdk synth -c dev` runs: the CLI drops the flag ("Context argument is not an assignment").
    const stderr = await synthStderr({ stackName: 'PlantStoreDev' });

    expect(stderr.trim().split('\n')).toContain(
      'PlantStoreDev: a retained stack: its table, user pool and logs outlive cdk destroy (-c dev=true: a disposable one)',
    );
  }, 60_000);
});
