// Where `npm start --host` listens decides what it tells the developer and how it writes next
// links: absolute only where every client reaches it by the origin it gives out.

import { describe, expect, it } from '@jest/globals';
import { exposureNotice, linkBaseFor, originOf } from '../../local/server/listen-address.ts';

describe('a loopback address', () => {
  it.each(['127.0.0.1', '127.0.0.2', '::1', 'localhost'])(
    '%s: absolute next links to the origin, and no notice about other machines',
    (host) => {
      const origin = originOf(host, 3000);
      expect(linkBaseFor(host, origin)).toBe(origin);
      expect(exposureNotice(host)).toBeUndefined();
    },
  );
});

describe('an address other machines reach', () => {
  it.each(['0.0.0.0', '::', '192.168.1.20', 'fd00::5'])(
    '%s: relative next links, since "localhost" there is the client itself, and a notice saying what is exposed',
    (host) => {
      expect(linkBaseFor(host, originOf(host, 3000))).toBeUndefined();
      expect(exposureNotice(host)).toMatch(/other machines can call the API.* over plain HTTP/);
    },
  );
});
