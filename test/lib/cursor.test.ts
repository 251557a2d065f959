import { describe, expect, it } from '@jest/globals';
import { decodeCursor, encodeCursor } from '../../handlers/lib/cursor.ts';
import { BadRequestError } from '../../handlers/lib/errors.ts';

describe('cursor', () => {
  it('round-trips the plant id for the caller it was issued to', () => {
    const cursor = encodeCursor('alice', 'plant-042');
    expect(decodeCursor([cursor], 'alice')).toBe('plant-042');
  });

  it('is URL-safe and does not show the id in clear', () => {
    const cursor = encodeCursor('alice', 'plant/42 ✓');
    expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(cursor).not.toContain('plant');
  });

  it('returns undefined when no cursor is given', () => {
    expect(decodeCursor(undefined, 'alice')).toBeUndefined();
  });

  it("refuses another caller's cursor", () => {
    const cursor = encodeCursor('alice', 'plant-042');
    expect(() => decodeCursor([cursor], 'bob')).toThrow(BadRequestError);
  });

  it('refuses a cursor whose position was edited', () => {
    const [, mac] = encodeCursor('alice', 'plant-042').split('.');
    const forged = `${Buffer.from('plant-999').toString('base64url')}.${mac}`;
    expect(() => decodeCursor([forged], 'alice')).toThrow(/cursor/);
  });

  it.each([[''], ['abc'], ['a.b'], ['....'], ['%00'], ['x'.repeat(5000)], [`${'A'.repeat(1400)}.${'A'.repeat(22)}`]])(
    'refuses malformed cursor %#',
    (raw) => {
      expect(() => decodeCursor([raw], 'alice')).toThrow(/cursor is invalid/);
    },
  );

  it('refuses a repeated cursor', () => {
    const cursor = encodeCursor('alice', 'p1');
    expect(() => decodeCursor([cursor, cursor], 'alice')).toThrow(BadRequestError);
  });

  it('refuses a position longer than a DynamoDB sort key even when correctly bound', () => {
    const cursor = encodeCursor('alice', 'x'.repeat(1025));
    expect(() => decodeCursor([cursor], 'alice')).toThrow(BadRequestError);
  });
});
