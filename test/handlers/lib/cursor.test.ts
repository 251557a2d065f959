import { describe, expect, it } from '@jest/globals';
import { decodeCursor, encodeCursor } from '../../../handlers/lib/cursor.ts';
import { BadRequestError } from '../../../handlers/lib/errors.ts';
import { groupPartition, userPartition } from '../../../handlers/lib/partitions.ts';

const alice = [userPartition('alice'), groupPartition('ferns'), groupPartition('herbs')];
const at = (partition: number, afterId?: string) => ({ partition, afterId });

describe('cursor', () => {
  it('round-trips the position for the caller it was issued to', () => {
    for (const position of [at(0, 'plant-042'), at(1, 'p1'), at(2), at(2, 'z')]) {
      expect(decodeCursor([encodeCursor('alice', alice, position)], 'alice', alice)).toEqual(position);
    }
  });

  it('names its partition, not its place in the list, so it survives a change of the other groups', () => {
    const cursor = encodeCursor('alice', alice, at(2, 'p7'));
    // herbs moves from third to fourth: the cursor follows the partition, not the index.
    const later = [userPartition('alice'), groupPartition('algae'), groupPartition('basil'), groupPartition('herbs')];
    expect(decodeCursor([cursor], 'alice', later)).toEqual(at(3, 'p7'));
  });

  it('refuses a cursor into a group the caller is no longer in, without naming a partition to read', () => {
    const cursor = encodeCursor('alice', alice, at(1, 'p1'));
    expect(() => decodeCursor([cursor], 'alice', [userPartition('alice'), groupPartition('herbs')])).toThrow(
      BadRequestError,
    );
  });

  it('is URL-safe and does not show the id or the group in clear', () => {
    const cursor = encodeCursor('alice', alice, at(1, 'plant/42 ✓'));
    expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(cursor).not.toMatch(/plant|ferns/);
  });

  it('starts at the first partition when no cursor is given', () => {
    expect(decodeCursor(undefined, 'alice', alice)).toEqual(at(0));
  });

  it("refuses another caller's cursor, even into a group both are in", () => {
    const bob = [userPartition('bob'), groupPartition('ferns')];
    expect(() => decodeCursor([encodeCursor('alice', alice, at(0, 'p1'))], 'bob', bob)).toThrow(BadRequestError);
    expect(() => decodeCursor([encodeCursor('alice', alice, at(1, 'p1'))], 'bob', bob)).toThrow(BadRequestError);
  });

  it('refuses a cursor whose position was edited', () => {
    const [payload = '', mac] = encodeCursor('alice', alice, at(0, 'plant-042')).split('.');
    const hash = Buffer.from(payload, 'base64url').subarray(0, 8);
    const forged = `${Buffer.concat([hash, Buffer.from('plant-999')]).toString('base64url')}.${mac}`;
    expect(() => decodeCursor([forged], 'alice', alice)).toThrow(/cursor/);
  });

  it.each([[''], ['abc'], ['a.b'], ['....'], ['%00'], ['x'.repeat(5000)], [`${'A'.repeat(1400)}.${'A'.repeat(22)}`]])(
    'refuses malformed cursor %#',
    (raw) => {
      expect(() => decodeCursor([raw], 'alice', alice)).toThrow(/cursor is invalid/);
    },
  );

  it('refuses a repeated cursor', () => {
    const cursor = encodeCursor('alice', alice, at(0, 'p1'));
    expect(() => decodeCursor([cursor, cursor], 'alice', alice)).toThrow(BadRequestError);
  });

  it('refuses a position longer than a DynamoDB sort key even when correctly bound', () => {
    const cursor = encodeCursor('alice', alice, at(0, 'x'.repeat(1025)));
    expect(() => decodeCursor([cursor], 'alice', alice)).toThrow(BadRequestError);
  });

  it('stays under 2,048 characters at the longest id', () => {
    expect(encodeCursor('alice', alice, at(2, '€'.repeat(341))).length).toBeLessThanOrEqual(2048);
  });
});
