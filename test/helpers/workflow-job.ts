// A GitHub Actions job's shell steps run here as a runner runs them (`bash -e`, `$GITHUB_OUTPUT`,
// step outputs, `if:`), in a git checkout made for the test: what a workflow decides, tried for real.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WorkflowStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

export interface Checkout {
  dir: string;
  sha: string;
}

/** One commit holding `files`, in a new repository at `dir`. */
export function gitCheckout(dir: string, files: Record<string, string>): Checkout {
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...args], { cwd: dir });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '--no-gpg-sign', '-m', 'a push');
  return { dir, sha: git('rev-parse', 'HEAD').toString().trim() };
}

/**
 * The `run` steps in order, as `bash -e` in the checkout, skipping `uses` steps (the checkout stands
 * in for them) and those whose `if` is false, until one fails. `${{ x }}` in a step's `env` is read
 * from earlier steps' outputs or `context`; an expression or `if` the helper can't evaluate throws.
 */
export function runShellSteps(
  steps: WorkflowStep[],
  { dir, sha }: Checkout,
  context: Record<string, string>,
  env: Record<string, string> = {},
) {
  const outputs: Record<string, Record<string, string>> = {};
  const value = (expression: string) => {
    const [, id, name] = /^steps\.([\w-]+)\.outputs\.(\w+)$/.exec(expression) ?? [];
    const found = id && name ? (outputs[id]?.[name] ?? '') : context[expression];
    if (found === undefined) throw new Error(`no value for ${expression}`);
    return found;
  };
  const holds = (condition: string) => {
    const [, expression = '', expected] = /^(\S+) == '([^']*)'$/.exec(condition) ?? [];
    if (expected === undefined) throw new Error(`cannot evaluate if: ${condition}`);
    return value(expression) === expected;
  };
  let log = '';
  for (const step of steps) {
    if (step.uses || (step.if && !holds(step.if))) continue;
    const outputFile = `${dir}.${step.id ?? 'step'}.output`;
    writeFileSync(outputFile, '');
    const stepEnv = Object.entries(step.env ?? {}).map(([key, text]) => [
      key,
      text.replace(/\$\{\{ (\S+) \}\}/g, (_, expression) => value(expression)),
    ]);
    // As a runner runs a script file: no startup files (bash would read ~/.bashrc, its stdin a socket).
    const run = spawnSync('bash', ['--noprofile', '--norc', '-e', '-c', step.run ?? ''], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        GITHUB_OUTPUT: outputFile,
        GITHUB_SHA: sha,
        ...env,
        ...Object.fromEntries(stepEnv),
      },
    });
    log += run.stdout + run.stderr;
    if (step.id) {
      const lines = readFileSync(outputFile, 'utf8').split('\n').filter(Boolean);
      outputs[step.id] = Object.fromEntries(lines.map((line) => line.split(/=(.*)/s).slice(0, 2)));
    }
    if (run.status !== 0) return { failed: step.name, log, outputs };
  }
  return { failed: undefined, log, outputs };
}
