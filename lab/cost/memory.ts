// The function's price at each memory size (-c memoryMb): Lambda gives a function CPU in proportion
// to its memory, a full vCPU at 1,769 MB (Lambda Developer Guide, "Configure Lambda function
// memory"), so the CPU-bound parts of a request and of INIT scale with it while the wait on
// DynamoDB does not. Modelled from the reference run, which stands for the 1,024 MB that deploys:
// the warm CPU time is the loopback p50 (no network), the rest of the billed duration is waiting.

import { FUNCTION_MEMORY_MB } from '../../infra/function-runtime.ts';
import { cents, roundTo } from './money.ts';
import { PRICES } from './prices.ts';
import { ASSUMPTIONS, monthlyRequests } from './traffic.ts';

export const MEMORY_SIZES_MB = [128, 256, 512, 1024, 1769, 2048] as const;
const FULL_VCPU_MB = 1769;

export interface MemoryInputs {
  /** Mean billed duration at the modelled round trip, at the default memory (ms). */
  billedDurationMs: number;
  /** Warm p50 over loopback (ms): the CPU-bound part of a request. */
  cpuMs: number;
  /** INIT (module load), billed since August 2025 (ms). */
  initMs: number;
}

const cpuShare = (memoryMb: number) => Math.min(1, memoryMb / FULL_VCPU_MB);

export function memoryPrices({ billedDurationMs, cpuMs, initMs }: MemoryInputs) {
  const waitMs = billedDurationMs - cpuMs;
  const requests = monthlyRequests(ASSUMPTIONS.requestsPerSecond);
  return MEMORY_SIZES_MB.map((memoryMb) => {
    const slower = cpuShare(FUNCTION_MEMORY_MB) / cpuShare(memoryMb);
    const durationMs = waitMs + cpuMs * slower;
    const coldStartMs = initMs * slower;
    const gbSeconds = (ms: number) => (ms / 1000) * (memoryMb / 1024);
    const perMillion =
      PRICES.lambdaRequests.usd +
      (gbSeconds(durationMs) + ASSUMPTIONS.coldStartRate * gbSeconds(coldStartMs)) * PRICES.lambdaArmGbSecond.usd * 1e6;
    return {
      memoryMb,
      durationMs: roundTo(durationMs, 1),
      coldStartMs: Math.round(coldStartMs),
      lambdaPerMillionUsd: roundTo(perMillion, 4),
      lambdaPerMonthUsd: cents((perMillion * requests) / 1e6),
    };
  });
}
