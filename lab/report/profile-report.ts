// bench:profile's tables, which lab/docs/performance.md quotes verbatim (lab/test/doc-figures.test.ts):
// a warm request's CPU and a cold start's by stage for each build, the components they spend it in,
// what a cold start reads, and valgrind's instruction counts with the A-vs-A control.

import { round } from '../harness/stats.ts';
import { STAGES } from '../measure/cpu-stages.ts';
import type { summarizeProfile } from '../measure/profile-runs.ts';

export type BuildProfile = ReturnType<typeof summarizeProfile> & {
  name: string;
  instructions?: { cold: number[]; perRequest: number[] };
};
export interface ProfileResults {
  generatedAt: string;
  loadAverage: { start: number; end: number };
  builds: BuildProfile[];
}

const pct = (share: number) => `${round(share * 100, 1)}%`;
/** Milliseconds to 3 significant figures: 0.135, 8.27, 182. */
const ms = (value: number) => `${Number(value.toPrecision(3))} ms`;
const stageCell = ({ ms: value, share }: { ms: number; share: number }) => `${ms(value)} (${pct(share)})`;
const kb = (bytes: number) => `${Math.round(bytes / 1000)} KB`;
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(values.length, 1);
/** Millions of instructions, 3 significant figures. */
const mega = (count: number) => `${Number((count / 1e6).toPrecision(3))} M`;
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const header = (cells: string[]) => [row(cells), row(cells.map(() => '---'))].join('\n');

/** Where a warm request's main-thread CPU goes, stage by stage, build beside build. */
export function warmStagesTable({ builds }: ProfileResults): string {
  const lines = [header(['warm request, main thread', ...builds.map((b) => b.name)])];
  for (const stage of STAGES) {
    lines.push(row([stage, ...builds.map((b) => stageCell(b.warm.stages[stage]))]));
  }
  lines.push(row(['**main thread, per request**', ...builds.map((b) => ms(b.warm.mainThreadCpuMsPerRequest))]));
  lines.push(row(['process, all threads', ...builds.map((b) => ms(b.warm.cpuMsPerRequest))]));
  return lines.join('\n');
}

/** A cold start's CPU by stage (import to first response), and what it reads. */
export function coldStagesTable({ builds }: ProfileResults): string {
  const lines = [header(['cold start, import → first response', ...builds.map((b) => b.name)])];
  for (const stage of STAGES) {
    lines.push(row([stage, ...builds.map((b) => stageCell(b.cold.stages[stage]))]));
  }
  lines.push(row(['**CPU to the first response** (median)', ...builds.map((b) => ms(b.cold.readyCpuMs))]));
  lines.push(row(['CPU to the end of init', ...builds.map((b) => ms(b.cold.initCpuMs))]));
  lines.push(row(['bytes read at a cold start', ...builds.map((b) => kb(b.coldStartBytes))]));
  return lines.join('\n');
}

/** The components a build's warm requests and cold start spend their samples in, and what a cold start reads. */
export function componentsTable(build: BuildProfile): string {
  const lines = [
    header([
      `${build.name}: component`,
      'warm request',
      'component',
      'cold start',
      'component',
      'read at a cold start',
    ]),
  ];
  const { warm, cold } = build;
  for (let i = 0; i < Math.max(warm.components.length, cold.components.length, cold.bytes.length); i++) {
    const w = warm.components[i];
    const c = cold.components[i];
    const b = cold.bytes[i];
    lines.push(
      row([
        w ? `\`${w.name}\`` : '',
        w ? pct(w.share) : '',
        c ? `\`${c.name}\`` : '',
        c ? pct(c.share) : '',
        b ? `\`${b.name}\`` : '',
        b ? kb(b.bytes) : '',
      ]),
    );
  }
  return lines.join('\n');
}

/** Instructions (valgrind), every run's, and each build's mean against the first build's (production). */
export function instructionsTable({ builds }: ProfileResults): string | undefined {
  const counted = builds.filter((b) => b.instructions);
  const [first] = counted;
  if (!first?.instructions) return undefined;
  const base = first.instructions;
  const lines = [
    header(['instructions (valgrind)', 'cold start, import → first response', 'per warm request', `÷ ${first.name}`]),
  ];
  for (const { name, instructions } of counted) {
    if (!instructions) continue;
    const ratio = (mine: number[], theirs: number[]) => (mean(mine) / mean(theirs)).toFixed(3);
    lines.push(
      row([
        name,
        instructions.cold.map(mega).join(', '),
        instructions.perRequest.map(mega).join(', '),
        `${ratio(instructions.cold, base.cold)}× cold, ${ratio(instructions.perRequest, base.perRequest)}× warm`,
      ]),
    );
  }
  return lines.join('\n');
}

export function renderProfile(results: ProfileResults): string {
  const [production] = results.builds;
  return [
    warmStagesTable(results),
    coldStagesTable(results),
    ...(production ? [componentsTable(production)] : []),
    ...results.builds.filter((b) => /hand-written/.test(b.name)).map(componentsTable),
    instructionsTable(results),
  ]
    .filter((table) => table !== undefined)
    .join('\n\n');
}
