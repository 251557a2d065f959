// The start banner: the API's URL first, then the docs, the store, and one curl command to paste.

import { DEFAULT_PORT } from './options.ts';

/** `users`: the local issuer's demo users, for a curl to paste; `notices`: things to know first, a line each. */
export function banner({
  origin,
  port,
  startupMs,
  store,
  issuer,
  users,
  tokenTtl,
  notices,
}: {
  origin: string;
  port: number;
  startupMs: number;
  store: string;
  issuer: string;
  users: { user: string; groups: readonly string[] }[] | undefined;
  tokenTtl: string;
  notices: (string | undefined)[];
}): string {
  const lines = [
    '',
    `Plant store API  ${origin}/plants  (ready in ${(startupMs / 1000).toFixed(1)} s)`,
    `  Docs    ${origin}/docs`,
    `  Store   ${store}`,
    `  Tokens  ${issuer}`,
    ...notices.filter((notice) => notice !== undefined).map((notice) => `Note: ${notice}`),
    '',
  ];
  const first = users?.[0];
  if (first) {
    const portFlag = port === DEFAULT_PORT ? '' : ` --port ${port}`;
    const groups = first.groups.length > 0 ? ` and the ${first.groups.join(', ')} group's` : '';
    lines.push(
      `Try it: ${first.user}'s plants${groups}, two a page (users: ${users.map(({ user }) => user).join(', ')})`,
      `  TOKEN=$(npm run -s token -- ${first.user}${portFlag})    # valid for ${tokenTtl}`,
      `  curl -i -H "Authorization: Bearer $TOKEN" "${origin}/plants?limit=2"`,
    );
  } else {
    lines.push(
      'Try it with an access token from your issuer:',
      `  curl -i -H "Authorization: Bearer $TOKEN" "${origin}/plants"`,
    );
  }
  lines.push('', 'Press Ctrl+C to stop.', '');
  return lines.join('\n');
}
