// The local server's access log: one line per request, whatever the request held. Query values
// are left out (a client that wrongly sends `?access_token=…` must not get its token logged), and
// control characters are escaped, since a refusal reason quotes fields of the caller's token.

export interface AccessEntry {
  time: Date;
  method: string | undefined;
  /** The request target as sent: path and query string. */
  url: string | undefined;
  status: number;
  ms: number;
  requestId: string;
  /** Why the function refused the request, when the server could find out. */
  reason?: string | undefined;
}

export function accessLine({ time, method, url, status, ms, requestId, reason }: AccessEntry): string {
  const fields = [time.toISOString(), method ?? '-', redactQuery(url ?? '/'), status, `${ms.toFixed(1)} ms`, requestId];
  const line = fields.join(' ') + (reason === undefined ? '' : ` because: ${reason}`);
  return escapeControls(line);
}

/** `/plants?limit=2&access_token=x` → `/plants?limit=…&access_token=…`: the names tell what was asked. */
export function redactQuery(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const names = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? pair : `${pair.slice(0, equals)}=…`;
    });
  return `${url.slice(0, start)}?${names.join('&')}`;
}

/**
 * C0 and C1 controls (newlines, ESC and the 8-bit CSI that start terminal sequences), DEL, the
 * Unicode line and paragraph separators and the bidirectional overrides that reorder what a
 * terminal shows: each written as `\xNN` or `\uNNNN`. A backslash is doubled, so an escape seen in
 * the log was one in the input, not text made to look like one.
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
