// `npm run token -- <user> [--ttl 1h] [--scope "a b"]`: an access token from the local issuer,
// printed as the last line (alone on stdout, so `$(npm run -s token -- alice)` is the token).

import { parseArgs } from 'node:util';
import { loadSigningKey } from '../keys.ts';
import { DEFAULT_PORT, issuerDirOf, localDirOf, parsePort } from '../options.ts';
import { DEFAULT_TOKEN_TTL, LOCAL_AUDIENCE, localIssuerUrl, mintToken, parseDuration } from '../tokens.ts';

const USAGE = `Usage: npm run token -- <user> [--ttl ${DEFAULT_TOKEN_TTL}] [--scope "scope1 scope2"]

  <user>         the token's subject (sub): the user whose plants the API returns
  --ttl D        lifetime: 90s, 15m, 12h, 7d (default ${DEFAULT_TOKEN_TTL})
  --scope S      space-separated scopes for the scope claim (default: none)

The token is for the local server on PORT (default ${DEFAULT_PORT}): its issuer is http://localhost:PORT.`;

try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ttl: { type: 'string', default: DEFAULT_TOKEN_TTL },
      scope: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const [subject, ...extra] = positionals;
  if (!subject || extra.length > 0) throw new Error('Give exactly one user, e.g. npm run token -- alice');
  const issuer = localIssuerUrl(parsePort(process.env.PORT ?? String(DEFAULT_PORT)));
  const ttl = parseDuration(values.ttl);
  const token = mintToken(loadSigningKey(issuerDirOf(localDirOf(process.env))), {
    issuer,
    subject,
    ttl,
    scope: values.scope,
  });
  const expires = new Date(Date.now() + ttl * 1000).toISOString();
  console.error(
    `Access token for ${subject} (iss ${issuer}, aud ${LOCAL_AUDIENCE}${values.scope ? `, scope "${values.scope}"` : ''}), expires ${expires}:`,
  );
  console.log(token);
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
