// cfn-lint (Python, pinned in test/checkers/requirements.txt) on synthesized templates.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** Resolves when cfn-lint finds nothing; rejects with its findings, or with what to do if it's missing. */
export async function cfnLint(templates: string[]): Promise<void> {
  try {
    // No time limit of its own: cfn-lint is slow on a busy machine, and one that hangs is the test's timeout to catch.
    await promisify(execFile)('cfn-lint', [...templates, '--ignore-checks', 'W3005']);
  } catch (error) {
    const failed = error as NodeJS.ErrnoException & { stdout?: string };
    if (failed.code === 'ENOENT') {
      throw new Error('cfn-lint is not on PATH: see docs/testing.md, Python checkers');
    }
    throw new Error(`cfn-lint found problems:\n${failed.stdout ?? ''}${failed.message}`);
  }
}
