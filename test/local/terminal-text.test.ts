// Text others chose, as a terminal gets it: every control, format and separator character (Unicode's
// Cc, Cf, Zl and Zp, inside and outside the BMP) escaped, and the escaped text reads back to the input.
//
// Deterministic: a fixed seed unless FC_SEED is set; FC_RUNS scales the run counts; a failure
// prints the seed and path to replay with FC_SEED and FC_PATH.

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { escapeControls, escapeOutput } from '../../local/terminal-text.ts';

const SEED = Number(process.env.FC_SEED ?? 20261128);
const SCALE = Number(process.env.FC_RUNS ?? 1);
const PATH = process.env.FC_PATH;
const check = <Ts extends unknown[]>(property: fc.IRawProperty<Ts>, numRuns: number) =>
  fc.assert(property, { seed: SEED, numRuns: numRuns * SCALE, ...(PATH && { path: PATH }) });

/** Every character of the categories, from the runtime's own Unicode tables. */
const CATEGORIES = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]$/u;
const unsafe: string[] = [];
for (let point = 0; point <= 0x10ffff; point++) {
  const char = String.fromCodePoint(point);
  if (CATEGORIES.test(char)) unsafe.push(char);
}
const anyUnsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** A string of unsafe characters, backslashes, escape-like text and any other code point (lone surrogates too). */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...unsafe),
    fc.constantFrom('\\', 'x', 'u', '0', 'e', '{'),
    fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  ),
  maxLength: 40,
});

/** Reads escapeControls' output back: `\\`, `\xNN`, `\uNNNN`. */
const readBack = (text: string) =>
  text.replace(/\\(\\|x[0-9a-f]{2}|u[0-9a-f]{4})/g, (_, code: string) =>
    code === '\\' ? '\\' : String.fromCharCode(Number.parseInt(code.slice(1), 16)),
  );

describe('terminal text', () => {
  // Bidi marks and isolates, a zero-width space, the BOM, a tag character and a musical format character.
  it.each([
    ['U+061C', '\u061c', '\\u061c'],
    ['U+200E', '\u200e', '\\u200e'],
    ['U+200F', '\u200f', '\\u200f'],
    ['U+200B', '\u200b', '\\u200b'],
    ['U+FEFF', '\ufeff', '\\ufeff'],
    ['U+2066', '\u2066', '\\u2066'],
    ['U+2069', '\u2069', '\\u2069'],
    ['U+E0001', '\u{e0001}', '\\udb40\\udc01'],
    ['U+1D173', '\u{1d173}', '\\ud834\\udd73'],
  ])('escapes %s, a format character a terminal would act on or hide', (_, char, escaped) => {
    expect(unsafe).toContain(char);
    expect(escapeControls(`a${char}b`)).toBe(`a${escaped}b`);
    expect(escapeOutput(`a${char}b`)).toBe(`a${escaped}b`);
  });

  it('leaves nothing of the categories in a line, and each escape reads back to what was written', async () => {
    await check(
      fc.property(hostile, (text) => {
        const escaped = escapeControls(text);
        expect(escaped).not.toMatch(anyUnsafe);
        expect(readBack(escaped)).toBe(text);
      }),
      500,
    );
  });

  it('keeps --json output valid and parsing equal, with only tab and line feed raw', async () => {
    await check(
      fc.property(fc.dictionary(hostile, hostile, { maxKeys: 3 }), (value) => {
        const output = escapeOutput(`${JSON.stringify(value, null, 2)}\n`);
        expect(output.replace(/[\t\n]/g, '')).not.toMatch(anyUnsafe);
        expect(JSON.parse(output)).toEqual(value);
      }),
      500,
    );
  });
});
