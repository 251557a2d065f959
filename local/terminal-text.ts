// What may reach a terminal or a CI log from text others chose (a request, a response body, an
// argument): control characters escaped, so nothing moves the cursor, recolours or clears the
// screen, or starts a line that looks like the program's own.

/**
 * C0 and C1 controls (newlines, ESC and the 8-bit CSI that start terminal sequences), DEL, the
 * Unicode line and paragraph separators and the bidirectional overrides that reorder what a
 * terminal shows: each written as `\xNN` or `\uNNNN`. A backslash is doubled, so an escape seen in
 * the output was one in the input, not text made to look like one.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE = /[\\\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (char) => {
    if (char === '\\') return '\\\\';
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
