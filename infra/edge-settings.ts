// The opt-in edge's settings (-c edge=true): CloudFront + AWS WAF in front of the HTTP API, with a
// rate limit per bearer token and per client address (infra/edge.ts, infra/edge-waf.ts).

import { type ContextReader, flag, integer, oneOf, SettingsError, text } from './context-values.ts';

export interface EdgeSettings {
  /** WAF's look-back window, in seconds: one of the values WAF takes. */
  windowSeconds: 60 | 120 | 300 | 600;
  /** Requests one bearer token may make per window before WAF answers 429. */
  tokenLimit: number;
  /** Requests one client address may make per window, whatever tokens it sends. */
  ipLimit: number;
  /**
   * The origin secret's generation (-c edgeSecretGeneration, default 1). Raising it by one is the one
   * way to rotate: CloudFront then sends the next generation's secret, which every deployed version
   * already accepts, and the function learns a new next one (infra/edge.ts).
   */
  secretGeneration: number;
}

export const EDGE_CONTEXT_KEYS = [
  'edge',
  'edgeWindowSeconds',
  'edgeTokenLimit',
  'edgeIpLimit',
  'edgeSecretGeneration',
] as const;

const WINDOWS = ['60', '120', '300', '600'] as const;
/** WAF's bounds on a rate-based rule's limit. */
const WAF_MIN_LIMIT = 10;
const WAF_MAX_LIMIT = 2_000_000_000;
/**
 * Defaults as shares of the stage's rate (maxRequestsPerSecond, see ceiling.ts) over the window: one token gets a fifth of it, one
 * address half (a NAT or office shares an address; a caller rotating tokens from one host does too).
 */
/** Any bound keeps logical ids short; a rotation a day would take 27 years to reach it. */
const MAX_SECRET_GENERATION = 9999;
const TOKEN_SHARE = 0.2;
const IP_SHARE = 0.5;

/** Undefined without `-c edge=true`; the edge's keys without it are refused rather than ignored. */
export function readEdge(context: ContextReader, stageRatePerSecond: number): EdgeSettings | undefined {
  if (!flag(context, 'edge')) {
    const stray = EDGE_CONTEXT_KEYS.find((key) => key !== 'edge' && text(context, key) !== undefined);
    if (stray) throw new SettingsError(`${stray} needs edge=true`);
    return undefined;
  }
  if (flag(context, 'samLocal')) {
    throw new SettingsError(
      'edge=true and samLocal=true cannot be combined: sam local calls the function without CloudFront, so every request would be refused',
    );
  }
  if (text(context, 'domainName') !== undefined) {
    throw new SettingsError(
      'edge=true and domainName cannot be combined: clients would call the distribution, not the API’s custom domain (put a name on the distribution instead; see docs/edge.md)',
    );
  }
  const windowSeconds = Number(oneOf(context, 'edgeWindowSeconds', WINDOWS) ?? '60') as EdgeSettings['windowSeconds'];
  const share = (fraction: number) =>
    Math.min(WAF_MAX_LIMIT, Math.max(WAF_MIN_LIMIT, Math.round(stageRatePerSecond * windowSeconds * fraction)));
  return {
    windowSeconds,
    tokenLimit: integer(context, 'edgeTokenLimit', share(TOKEN_SHARE), WAF_MIN_LIMIT, WAF_MAX_LIMIT),
    ipLimit: integer(context, 'edgeIpLimit', share(IP_SHARE), WAF_MIN_LIMIT, WAF_MAX_LIMIT),
    secretGeneration: integer(context, 'edgeSecretGeneration', 1, 1, MAX_SECRET_GENERATION),
  };
}
