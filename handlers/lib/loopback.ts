// What counts as this machine: one rule for the function's PUBLIC_BASE_URL (plain http only on
// loopback), the local server's listen address and the smoke check's "is this a local server".

/** A loopback host name as URL.hostname spells it: localhost, 127.0.0.0/8, [::1]. */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
