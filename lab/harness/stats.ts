// Order statistics of latency samples.

/** The nearest-rank percentile `p` (0..100) of `samples`. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export interface Histogram {
  /** Width of each bin in microseconds; bin i counts samples in [i·binUs, (i+1)·binUs). */
  binUs: number;
  counts: number[];
  /** Samples at or beyond the last bin. */
  overflow: number;
}

/** Counts of `samples` (µs) in `bins` equal bins from 0 to `upperUs`. */
export function histogram(samples: readonly number[], upperUs: number, bins = 40): Histogram {
  const binUs = Math.max(1, Math.ceil(upperUs / bins));
  const counts = new Array<number>(bins).fill(0);
  let overflow = 0;
  for (const sample of samples) {
    const bin = Math.floor(sample / binUs);
    if (bin < bins) counts[bin] = (counts[bin] ?? 0) + 1;
    else overflow++;
  }
  return { binUs, counts, overflow };
}
