// The start banner: where everything is, and curl commands that work as pasted.

export interface BannerFacts {
  origin: string;
  startupMs: number;
  store: string;
  /** Issuer in use, and for the local issuer the demo users' tokens and their lifetime. */
  issuer: string;
  tokens?: { user: string; groups: readonly string[]; token: string }[] | undefined;
  tokenTtl?: string | undefined;
  /** Things to know before trying it (no demo data, listening beyond loopback), one line each. */
  notices?: (string | undefined)[];
}

export function banner({ origin, startupMs, store, issuer, tokens, tokenTtl, notices = [] }: BannerFacts): string {
  const lines = [
    '',
    `Plant store API ready in ${(startupMs / 1000).toFixed(1)} s`,
    `  API     ${origin}/plants`,
    `  Docs    ${origin}/docs  (OpenAPI document: ${origin}/openapi.json)`,
    `  Store   ${store}`,
    `  Tokens  ${issuer}`,
    '',
    ...notices.filter((notice) => notice !== undefined).flatMap((notice) => [`Note: ${notice}`, '']),
  ];
  if (tokens) {
    lines.push(`Try it (tokens valid for ${tokenTtl}; a fresh one: npm run token -- <user> [--groups a,b]):`);
    for (const { user, groups, token } of tokens) {
      const shared =
        groups.length > 0 ? ` and the ${groups.join(', ')} group's (the token names ${user}'s groups)` : '';
      lines.push(
        `  # ${user}'s own plants${shared}`,
        `  curl -s -H "Authorization: Bearer ${token}" "${origin}/plants"`,
      );
    }
    const first = tokens[0];
    if (first) {
      lines.push(
        `  # ${first.user}'s first page of two; the Link header points to the next page`,
        `  curl -i -H "Authorization: Bearer ${first.token}" "${origin}/plants?limit=2"`,
      );
    }
  } else {
    lines.push(
      'Try it with an access token from your issuer:',
      `  curl -i -H "Authorization: Bearer $TOKEN" "${origin}/plants"`,
    );
  }
  lines.push('', 'Press Ctrl+C to stop.', '');
  return lines.join('\n');
}
