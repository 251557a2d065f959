// Path variables as an attacker writes them, and which of them a route may pass on, decided by
// decoding rather than by a pattern: the oracle of the route matcher's tests on every surface.

import fc from 'fast-check';

/**
 * Whether a path variable's segment is one to pass on: non-empty, every `%` a well-formed escape, no `/`, `\` or control character raw or encoded, not `.`
 * or `..` once decoded.
 */
export function acceptableSegment(segment: string): boolean {
  if (segment === '') return false;
  let decoded = '';
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] ?? '';
    if (char !== '%') decoded += char;
    else if (/^[0-9A-Fa-f]{2}$/.test(segment.slice(i + 1, i + 3))) {
      decoded += String.fromCharCode(Number.parseInt(segment.slice(i + 1, i + 3), 16));
      i += 2;
      // A byte of a multi-byte character: not a character of its own.
      if (decoded.charCodeAt(decoded.length - 1) >= 0x80) decoded = `${decoded.slice(0, -1)}x`;
    } else return false;
  }
  if (decoded === '.' || decoded === '..') return false;
  const control = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);
  return ![...decoded].some((char) => char === '/' || char === '\\' || control(char.codePointAt(0) ?? 0));
}

/** Path variables an attacker would try: traversal, encoded separators and controls, raw controls, stray `%`. */
export const hostileSegment = fc.string({
  unit: fc.oneof(
    fc.constantFrom('.', '..', '%2e', '%2E', '%2F', '%2f', '%5C', '%5c', '%00', '%0a', '%0D', '%1f', '%7F'),
    fc.constantFrom(
      '\\',
      '\u0000',
      '\n',
      '\r',
      '\t',
      '\u007f',
      '\u0085',
      '%',
      '%G0',
      '%2',
      'p',
      '-',
      '1',
      'é',
      '%e2%82%ac',
    ),
  ),
  maxLength: 6,
});
