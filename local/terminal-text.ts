// Text others chose, made safe for a terminal or CI log: control characters escaped.

/** C0 and C1 controls, DEL, line and paragraph separators, bidi overrides, and the backslash that escapes them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE = /[\\\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (char: string, digits: number) => char.charCodeAt(0).toString(16).padStart(digits, '0');

/**
 * One value or line: each unsafe character as `\xNN` or `\uNNNN`, a backslash doubled, so an escape in
 * the output was one in the input.
 */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (char) => {
    if (char === '\\') return '\\\\';
    return char <= '\u00ff' ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`;
  });
}

/**
 * Whatever a command writes: unsafe characters but tab, line feed and backslash as `\uNNNN`, the JSON
 * escape, so `--json` output (JSON.stringify leaves C1 controls and bidi raw) stays valid and parses equal.
 */
export function escapeOutput(text: string): string {
  return text.replace(UNSAFE, (char) => ('\\\t\n'.includes(char) ? char : `\\u${hex(char, 4)}`));
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
