// The files a deploy job runs, imports or reads while it holds a deploy role's credentials: from the steps
// after the role is assumed (npm scripts, the CDK app), through relative imports, the scripts they spawn
// by path and the files they read beside them; and what npm, setup-node and the CDK CLI read.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { importGraph, sourceFiles } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const isFile = (file: string) => existsSync(join(ROOT, file)) && statSync(join(ROOT, file)).isFile();

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

/** Repository-relative paths of every such file, sorted. */
export function runsWithDeployCredentials(workflowText: string, workflowFile = '.github/workflows/pipeline.yml') {
  const { jobs } = parse(workflowText) as { jobs: Record<string, { environment?: string; steps: Step[] }> };
  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
  const app = JSON.parse(read('cdk.json')).app as string;
  const entries = new Set<string>();
  const files = new Set(['package.json', 'package-lock.json', 'cdk.json', workflowFile]);
  for (const job of Object.values(jobs).filter(({ environment }) => environment !== undefined)) {
    const assumed = job.steps.findIndex((step) => step.with?.['role-to-assume']);
    for (const step of job.steps) if (step.with?.['node-version-file']) files.add(step.with['node-version-file']);
    for (const { run = '' } of job.steps.slice(assumed + 1)) {
      const command = /npm run (\S+)/.exec(run)?.[1];
      const line = command ? scripts[command] : /npx cdk /.test(run) ? app : undefined;
      const entry = line && /node (\S+\.ts)/.exec(line)?.[1];
      if (entry) entries.add(entry);
    }
  }
  const graph = importGraph(ROOT, sourceFiles(ROOT), { runtimeOnly: true });
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (files.has(file)) continue;
    files.add(file);
    const text = read(file);
    // Spawned by path (the bundler's `${root}local/cli/build.ts`), or read beside it (`new URL('../x', …)`).
    const spawned = [...text.matchAll(/[`'"}]((?:[\w.-]+\/)+[\w.-]+\.ts)[`'"]/g)].map(([, path]) => path ?? '');
    const beside = [...text.matchAll(/new URL\(\s*'(\.\.?\/[^']+)'\s*,\s*import\.meta\.url\s*\)/g)].map(([, path]) =>
      relative(ROOT, resolve(ROOT, dirname(file), path ?? '')),
    );
    for (const target of [...(graph.get(file) ?? []), ...spawned.filter(isFile)]) queue.push(target);
    for (const target of beside.filter(isFile)) files.add(target);
  }
  return [...files].sort();
}
