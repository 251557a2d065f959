// Worst-hour inputs shaped like a bench run's: bytes logged and answered per status, billed durations.

import type { HourInputs } from '../../cost/worst-hour.ts';

export function hourInputs(lambdaPlatform = 0): HourInputs {
  const status = (functionLog: number, apiAccessLog: number, response: number) => ({
    functionLog,
    lambdaPlatform,
    apiAccessLog,
    response,
  });
  return {
    billedDurationMs: 12,
    refusalDurationMs: 2,
    logBytesByStatus: {
      '200': status(0, 194, 4700),
      '400': status(500, 193, 330),
      '401': status(650, 192, 380),
      '503': status(1450, 192, 310),
    },
  };
}
