import { describe, expect, it } from '@jest/globals';
import { TooManyGroupsError, UnauthorizedError } from '../../../handlers/lib/errors.ts';
import { groupsOf, MAX_GROUP_NAME_BYTES, MAX_GROUPS } from '../../../handlers/lib/groups.ts';

const CLAIM = 'cognito:groups';
const of = (value: unknown) => groupsOf({ [CLAIM]: value } as never, CLAIM);

describe('groupsOf', () => {
  it('reads an array of names, distinct and sorted by code unit', () => {
    expect(of(['ferns', 'Cacti', 'ferns', 'é', 'b#c'])).toEqual(['Cacti', 'b#c', 'ferns', 'é']);
  });

  it('reads a single string as one group, as some issuers send a lone group', () => {
    expect(of('greenhouse')).toEqual(['greenhouse']);
  });

  it('is empty when the claim is absent, or when no claim is configured whatever the token says', () => {
    expect(groupsOf({}, CLAIM)).toEqual([]);
    expect(groupsOf({ [CLAIM]: ['ferns'] } as never, undefined)).toEqual([]);
  });

  it('keeps separators, spaces, Unicode and names up to the key limit', () => {
    const long = 'x'.repeat(MAX_GROUP_NAME_BYTES);
    expect(of(['#', 'user#alice', 'a b', '🌵 cacti', long])).toEqual(
      ['#', '🌵 cacti', 'a b', 'user#alice', long].sort(),
    );
  });

  it.each([
    ['a number', 42],
    ['an object', { ferns: true }],
    ['null', null],
    ['an array holding a number', ['ferns', 7]],
    ['an empty name', ['']],
    ['a control character', ['fer\u0000ns']],
    ['a line break', ['ferns\nadmin']],
    ['a lone surrogate (it would share a key with U+FFFD)', ['\ud800']],
    ['a name longer than a partition key allows', ['x'.repeat(MAX_GROUP_NAME_BYTES + 1)]],
  ])('refuses the whole token (401) when the claim holds %s', (_, value) => {
    expect(() => of(value)).toThrow(UnauthorizedError);
    expect(() => of(value)).toThrow(expect.objectContaining({ reason: 'invalid_groups' }));
  });

  it(`reads up to ${MAX_GROUPS} distinct groups and refuses more with 403, never cutting silently`, () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `g${i}`);
    expect(of([...names(MAX_GROUPS), ...names(MAX_GROUPS)])).toHaveLength(MAX_GROUPS);
    expect(() => of(names(MAX_GROUPS + 1))).toThrow(TooManyGroupsError);
    expect(() => of(names(5000))).toThrow(expect.objectContaining({ status: 403, reason: 'too_many_groups' }));
  });
});
