// Only Date is faked: tokens, aws-jwt-verify's exp check and our caches read Date.now(), while
// fetch timeouts, sockets and the JWKS fetcher's penalty box keep real timers.

import { jest } from '@jest/globals';

export function fakeDateOnly(now?: number): void {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
    ...(now !== undefined && { now }),
  });
}
