// How the bill rounds and scales a price: written once for every cost file (bill, flags, worst hour,
// the stack's fixed month, the per-request figures).

/** To the cent, as every dollar figure is shown. */
export const cents = (usd: number): number => roundTo(usd, 2);

/** To `digits` decimals (per-million figures keep 4). */
export const roundTo = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** What `requests` requests cost at `usdPerMillion`. */
export const forRequests = (usdPerMillion: number, requests: number): number => (usdPerMillion * requests) / 1e6;

/** A per-request amount as a price per million requests. */
export const perMillion = (usdPerRequest: number): number => usdPerRequest * 1e6;

/** A gigabyte as AWS bills transfer, logs and storage: 10^9 bytes. */
export const GB = 1e9;
