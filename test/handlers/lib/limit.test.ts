import { describe, expect, it } from '@jest/globals';
import { BadRequestError } from '../../../handlers/lib/errors.ts';
import { LIMIT_MAX, parseLimit } from '../../../handlers/lib/limit.ts';

describe('parseLimit', () => {
  it('returns a full page when limit is absent', () => {
    expect(parseLimit(undefined, 1000)).toBe(1000);
  });

  it.each([
    ['1', 1],
    ['25', 25],
    ['007', 7],
    ['1000', 1000],
  ])('accepts %s', (raw, expected) => {
    expect(parseLimit([raw], 1000)).toBe(expected);
  });

  it('clamps values above the page maximum instead of refusing them', () => {
    expect(parseLimit(['1001'], 1000)).toBe(1000);
    expect(parseLimit([String(LIMIT_MAX)], 1000)).toBe(1000);
  });

  it.each([
    [''],
    ['abc'],
    ['1.5'],
    ['1e3'],
    ['-1'],
    ['+1'],
    ['0'],
    [' 5'],
    ['5 '],
    ['0x10'],
    ['2147483648'],
    ['99999999999999999999'],
    ['５'],
    ['5\u0000'],
  ])('refuses %j with a message naming limit and its range', (raw) => {
    expect(() => parseLimit([raw], 1000)).toThrow(BadRequestError);
    expect(() => parseLimit([raw], 1000)).toThrow(/limit.*1 to 2147483647/);
  });

  it('refuses a repeated limit even when both values are valid', () => {
    expect(() => parseLimit(['5', '5'], 1000)).toThrow(/limit/);
  });
});
