// Progress of the benchmark's longer phases, on stderr: a live bar on a terminal; elsewhere (a CI
// log, a captured run) a line as the phase starts and ends, and every 10 s in between.

import { SingleBar } from 'cli-progress';

export interface Progress {
  increment(by?: number): void;
}

/** Runs `phase` with a bar of `total` `unit`s, stopped however the phase ends. */
export async function withProgress<T>(
  label: string,
  total: number,
  unit: string,
  phase: (progress: Progress) => Promise<T>,
): Promise<T> {
  const bar = new SingleBar({
    stream: process.stderr,
    format: process.stderr.isTTY
      ? `  ${label} [{bar}] {value}/{total} ${unit}, ETA {eta_formatted}`
      : `  ${label}: {value}/{total} ${unit} after {duration_formatted}`,
    noTTYOutput: true,
    notTTYSchedule: 10_000,
    hideCursor: true,
    clearOnComplete: false,
  });
  bar.start(total, 0);
  try {
    return await phase({ increment: (by = 1) => bar.increment(by) });
  } finally {
    bar.stop();
  }
}
