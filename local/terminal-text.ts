// Text others chose, made safe for a terminal or CI log: control characters escaped.

/**
 * What a terminal acts on or hides rather than shows, by Unicode's own categories: controls (Cc: C0,
 * DEL, C1), format characters (Cf: bidi marks, isolates and overrides, zero-width characters, the BOM,
 * tag characters), line and paragraph separators (Zl, Zp); and the backslash that escapes them.
 */
const UNSAFE = /[\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const hex = (unit: string, digits: number) => unit.charCodeAt(0).toString(16).padStart(digits, '0');
/** `\uNNNN` per UTF-16 unit: a character past U+FFFF is its surrogate pair, as JSON and JavaScript spell it. */
const unicodeEscape = (char: string) => char.replace(/[\s\S]/g, (unit) => `\\u${hex(unit, 4)}`);

/**
 * One value or line: each unsafe character as `\xNN` or `\uNNNN`, a backslash doubled, so an escape in
 * the output was one in the input.
 */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (char) => {
    if (char === '\\') return '\\\\';
    return char <= '\u00ff' ? `\\x${hex(char, 2)}` : unicodeEscape(char);
  });
}

/**
 * Whatever a command writes: unsafe characters but tab, line feed and backslash as `\uNNNN`, the JSON
 * escape, so `--json` output (JSON.stringify leaves C1 controls and bidi raw) stays valid and parses equal.
 */
export function escapeOutput(text: string): string {
  return text.replace(UNSAFE, (char) => ('\\\t\n'.includes(char) ? char : unicodeEscape(char)));
}

const rawWrites = new WeakMap<NodeJS.WriteStream, NodeJS.WriteStream['write']>();

/** From now on, every string written to stdout and stderr is escaped (escapeOutput); bytes pass as written. */
export function escapeTerminalOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (rawWrites.has(stream)) continue;
    const write = stream.write.bind(stream) as NodeJS.WriteStream['write'];
    rawWrites.set(stream, write);
    stream.write = ((chunk: unknown, ...rest: never[]) =>
      write(typeof chunk === 'string' ? escapeOutput(chunk) : (chunk as Uint8Array), ...rest)) as typeof stream.write;
  }
}

/** The stream as it writes without escaping: for the program's own terminal sequences (a progress bar). */
export function unescaped(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  const write = rawWrites.get(stream);
  return write ? Object.create(stream, { write: { value: write } }) : stream;
}
