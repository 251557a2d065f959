// Clocks a test moves itself. fakeDateOnly: tokens, aws-jwt-verify's exp check and our caches read
// Date.now(), while fetch timeouts, sockets and the JWKS fetcher's penalty box keep real timers.
// fakeDateAndTimers: the timers too, so a library's own timer (the penalty box's 10 s) ends when the
// test moves the clock past it, never because the machine was slow; sockets keep real time.

import { jest } from '@jest/globals';

const REAL = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate'] as const;

export function fakeDateOnly(now?: number): void {
  jest.useFakeTimers({
    doNotFake: [...REAL, 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    ...(now !== undefined && { now }),
  });
}

export function fakeDateAndTimers(now: number): void {
  jest.useFakeTimers({ doNotFake: [...REAL], now });
}
