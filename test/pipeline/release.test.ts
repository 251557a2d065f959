// The release workflow, its steps' scripts run by bash in a git checkout as a runner runs them: a
// version in package.json with no tag yet is tagged and released with its CHANGELOG.md section;
// anything else releases nothing. `gh` is a stand-in recording its arguments (no GitHub here).

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { type Checkout, gitCheckout, runShellSteps, type WorkflowStep } from '../helpers/workflow-job.ts';

const ROOT = new URL('../../', import.meta.url);
const workflow = parse(readFileSync(new URL('.github/workflows/release.yml', ROOT), 'utf8')) as {
  on: unknown;
  concurrency: unknown;
  jobs: Record<string, { steps: WorkflowStep[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const VERSION = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).version as string;
const CHANGELOG = readFileSync(new URL('CHANGELOG.md', ROOT), 'utf8');
const GITHUB = { 'github.token': 'a-token', 'github.repository': 'octo-org/plant-store' } as Record<string, string>;

const scratch = mkdtempSync(join(tmpdir(), 'release-workflow-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// The stand-in fails as gh does without a token, else appends its arguments (NUL-separated), a line
// a call.
const bin = join(scratch, 'bin');
mkdirSync(bin);
writeFileSync(
  join(bin, 'gh'),
  '#!/usr/bin/env bash\n[ -n "$GH_TOKEN" ] || exit 4\nprintf \'%s\\0\' "$GH_REPO" "$@" >> "$GH_CALLS"\necho >> "$GH_CALLS"\n',
);
chmodSync(join(bin, 'gh'), 0o755);

// One repository for every case: each push below sets its files and tags before the job runs.
let repository: Checkout;
beforeAll(() => {
  repository = gitCheckout(join(scratch, 'repository'), { 'package.json': '{}', 'CHANGELOG.md': '' });
});

/** main as the job checks it out: package.json's version, CHANGELOG.md, and the repository's tags. */
function push({ version, changelog = CHANGELOG, tags = [] }: { version: string; changelog?: string; tags?: string[] }) {
  writeFileSync(join(repository.dir, 'package.json'), JSON.stringify({ name: 'plant-store', version }));
  writeFileSync(join(repository.dir, 'CHANGELOG.md'), changelog);
  rmSync(join(repository.dir, 'release-notes.md'), { force: true });
  // Lightweight tags as git stores them, a loose ref holding a commit id (fewer processes on a busy runner).
  const refs = join(repository.dir, '.git', 'refs', 'tags');
  rmSync(refs, { recursive: true, force: true });
  mkdirSync(refs);
  for (const tag of tags) writeFileSync(join(refs, tag), `${repository.sha}\n`);
  return repository;
}

/** The release job on that push, and the calls it made to gh. */
function runJob(checkout: Checkout) {
  const calls = `${checkout.dir}.gh-calls`;
  writeFileSync(calls, '');
  const job = runShellSteps(steps, checkout, GITHUB, { PATH: `${bin}:${process.env.PATH}`, GH_CALLS: calls });
  const gh = readFileSync(calls, 'utf8').split('\n').filter(Boolean);
  return { ...job, gh: gh.map((call) => call.split('\0').filter(Boolean)) };
}

const released = (version: string, sha: string) => [
  [
    GITHUB['github.repository'],
    'release',
    'create',
    `v${version}`,
    '--target',
    sha,
    '--title',
    `v${version}`,
    '--notes-file',
    'release-notes.md',
  ],
];

describe('the release workflow', () => {
  it('runs on a push to main only, one run at a time, never cancelled, from a checkout with every tag', () => {
    expect(workflow.on).toEqual({ push: { branches: ['main'] } });
    expect(workflow.concurrency).toEqual({ group: 'release', 'cancel-in-progress': false });
    // The one step the test does not run: its checkout stands in for it.
    expect(
      steps.filter((step) => step.uses).map((step) => [step.uses?.split('@')[0], step.with?.['fetch-depth']]),
    ).toEqual([['actions/checkout', 0]]);
  });

  it('tags and releases the version in package.json when it has no tag: the first release, and a bump', () => {
    for (const [name, tags] of [
      ['first', []],
      ['bump', ['v0.9.0', 'v0.9.1']],
    ] as const) {
      const job = runJob(push({ version: VERSION, tags: [...tags] }));
      expect({ name, failed: job.failed, gh: job.gh }).toEqual({
        name,
        failed: undefined,
        gh: released(VERSION, repository.sha),
      });
    }
  });

  it('releases nothing when the version is tagged already, as on a push that leaves it alone', () => {
    const job = runJob(push({ version: VERSION, tags: ['v0.9.0', `v${VERSION}`] }));
    expect(job).toMatchObject({
      failed: undefined,
      gh: [],
      outputs: { version: { version: VERSION, release: 'false' } },
    });
    expect(job.log).toContain(`v${VERSION} is tagged already`);
  });

  it('writes the notes from the real CHANGELOG.md: the version’s section, from the line after its heading to the next', () => {
    expect(runJob(push({ version: VERSION })).failed).toBeUndefined();
    const notes = readFileSync(join(repository.dir, 'release-notes.md'), 'utf8');
    const [, section = ''] = CHANGELOG.split(
      new RegExp(`^## \\[${VERSION.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}\\n`, 'm'),
    );
    const firstLine = section.split('\n').find((line) => line.trim()) ?? '';
    expect(firstLine).not.toBe('');
    expect(notes.slice(0, firstLine.length + 1)).toBe(`${firstLine}\n`);
    expect(CHANGELOG).toContain(notes);
    // Neither the next version's section nor the link references at the bottom.
    expect(notes).not.toMatch(/^## |^\[.*\]: /m);
    // On the release page a link resolves against .../releases/tag/vX.Y.Z: only absolute ones, or the repository's ../../.
    for (const [, target] of notes.matchAll(/\]\(([^)]*)\)/g)) expect(target).toMatch(/^(https:\/\/|#|\.\.\/\.\.\/)/);
  });

  it('fails naming CHANGELOG.md when it has no section, or an empty one, for the version, and releases nothing', () => {
    // An empty section right before the first released one, whatever [Unreleased] holds.
    const empty = CHANGELOG.replace(/^## \[\d+\.\d+\.\d+\]/m, '## [9.9.9] - 2027-01-01\n\n$&');
    for (const [name, changelog] of [
      ['missing', CHANGELOG],
      ['empty', empty],
    ] as const) {
      const job = runJob(push({ version: '9.9.9', changelog }));
      expect({ name, failed: job.failed, gh: job.gh }).toEqual({ name, failed: 'its CHANGELOG.md section', gh: [] });
      expect(job.log).toContain('::error file=CHANGELOG.md::no section "## [9.9.9] - YYYY-MM-DD"');
    }
  });

  it('refuses a version that is not MAJOR.MINOR.PATCH before using it anywhere', () => {
    for (const version of ['1.0', 'v1.0.0', '1.0.0-rc.1', '1.0.0"; touch injected; "']) {
      const job = runJob(push({ version }));
      expect({ version, failed: job.failed, gh: job.gh }).toEqual({
        version,
        failed: 'the version, and whether it is tagged',
        gh: [],
      });
      expect(job.log).toContain('::error file=package.json::');
      expect(job.outputs.version).toEqual({});
      expect(existsSync(join(repository.dir, 'injected'))).toBe(false);
    }
  });
});
