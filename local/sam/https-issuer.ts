// `npm run sam:issuer`: the token issuer for the manual `sam local` steps (docs/sam-local.md).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { functionEnvironment } from '../../handlers/lib/environment.ts';
import { runCli } from '../cli/shell.ts';
import { LOCAL_AUDIENCE } from '../issuer/tokens.ts';
import { DEMO_USERS } from '../store/demo.ts';
import { escapeControls } from '../terminal-text.ts';
import { startSamIssuer } from './issuer.ts';

const DIR = fileURLToPath(new URL('../../.local/https-issuer/', import.meta.url));
const HOST = process.env.ISSUER_HOST || '127.0.0.1';
const PORT = Number(process.env.ISSUER_PORT ?? 9443);

const USAGE = `Usage: npm run sam:issuer -- [USER]...        (environment: ISSUER_HOST=ADDRESS ISSUER_PORT=N)

  Serves a JWKS over HTTPS on ISSUER_HOST (default 127.0.0.1; a container needs the Docker bridge's
  address, e.g. 172.17.0.1) and ISSUER_PORT (default 9443), prints the function's environment for
  it, and mints a Cognito-shaped token per USER (the demo users with their groups) into
  .local/https-issuer/USER.token. For the manual steps of docs/sam-local.md; npm run sam does it all.`;

await runCli({ usage: USAGE, options: {}, positionals: true }, async ({ positionals }) => {
  const issuer = await startSamIssuer(DIR, HOST, PORT);
  console.log(`JWKS: ${issuer.jwksUri} (listening on ${HOST}:${PORT})`);
  console.log(`Certificate to trust: ${issuer.certFile}`);
  // The function's environment for this issuer, as a shell line to copy.
  const auth = functionEnvironment({ auth: { issuer: issuer.url, issuerType: 'cognito', audience: [LOCAL_AUDIENCE] } });
  console.log(
    Object.entries(auth)
      .map(([name, value]) => `${name}=${value}`)
      .join(' '),
  );
  for (const subject of positionals) {
    const groups = DEMO_USERS.find(({ user }) => user === subject)?.groups ?? [];
    const file = join(DIR, `${encodeURIComponent(subject)}.token`);
    writeFileSync(file, `${issuer.mint(subject, groups)}\n`, { mode: 0o600 });
    const shownGroups = groups.length > 0 ? ` (cognito:groups ${groups.join(',')})` : '';
    console.log(escapeControls(`Token for ${subject}${shownGroups}: ${file}`));
  }
  console.log('Ready. Ctrl+C stops it.');
});
