// What each option costs, from one file per option in options/ (named for its infra/<name>/ folder):
// its prices with source and date, its monthly lines counted in its own synth, its price against the
// default stack, and its worst hour. The lab finds them by name; removing an option's file removes its
// sections from lab/results.json on the next `npm run bench:bill -w lab -- --update-reference`.

import { readdirSync } from 'node:fs';
import type { FlagPrice } from './flag-prices.ts';
import type { HourInputs, worstHourAtDefault } from './worst-hour.ts';

/** The measured per-request figures an option is priced from (results.json's `cost`, as costOf gives it). */
export interface PricedFrom {
  perMillionUsd: { apiGateway: number; dataTransferOut: number };
  responseBytesPerRequest: number;
  logBytesPerRequest: { apiAccessLog: number };
}

export interface OptionCost<Monthly extends { usd: number } = { usd: number }, Section = unknown> {
  /** What it adds whatever the traffic, counted in a synth of it into `outdir`. */
  monthly(outdir: string): Monthly;
  /** Its section of results.json's `cost.options` and its row of every flag's price. */
  bill(
    cost: PricedFrom,
    monthly: Monthly,
    hour: ReturnType<typeof worstHourAtDefault>,
    inputs: HourInputs,
  ): { section: Section; flagPrice: FlagPrice };
  /** The page that quotes its figures, and the figures it must state (lab/test/doc-figures.test.ts). */
  page: string;
  figures(section: Section): string[];
  /** Its lines of the bill `npm run bench:bill -w lab` prints. */
  report(section: Section): string[];
}

const DIRECTORY = new URL('options/', import.meta.url);

/** Every option's cost file, by name. */
export const OPTION_COSTS: Record<string, OptionCost> = Object.fromEntries(
  await Promise.all(
    readdirSync(DIRECTORY)
      .filter((file) => file.endsWith('.ts'))
      .sort()
      .map(async (file) => [
        file.slice(0, -'.ts'.length),
        ((await import(new URL(file, DIRECTORY).href)) as { cost: OptionCost }).cost,
      ]),
  ),
);
