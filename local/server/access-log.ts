// The local server's access log: a line per request, query values left out, controls escaped.
// A client that wrongly sends `?access_token=…` must not get its token logged.

import { escapeControls } from '../terminal-text.ts';

/** `url`: the request target as sent, path and query string. */
export function accessLine({
  time,
  method,
  url,
  status,
  ms,
  requestId,
}: {
  time: Date;
  method: string | undefined;
  url: string | undefined;
  status: number;
  ms: number;
  requestId: string;
}): string {
  const fields = [time.toISOString(), method ?? '-', redactQuery(url ?? '/'), status, `${ms.toFixed(1)} ms`, requestId];
  return escapeControls(fields.join(' '));
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
