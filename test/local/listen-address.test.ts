// Where `npm start --host` listens decides what it tells the developer and how it writes next
// links: absolute only where every client reaches it by the origin it gives out.

import { describe, expect, it } from '@jest/globals';
import { exposureNotice, linkBaseFor, linkOnOrigin, originOf } from '../../local/listen-address.ts';

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

describe('the origin given out', () => {
  it.each([
    ['127.0.0.1', 'http://127.0.0.1:3000'],
    ['::1', 'http://[::1]:3000'],
    ['0.0.0.0', 'http://127.0.0.1:3000'],
    ['::', 'http://[::1]:3000'],
    ['192.168.1.20', 'http://192.168.1.20:3000'],
  ])('is the bound address %s, never the name localhost, which may resolve to another: %s', (address, origin) => {
    expect(originOf(address, 3000)).toBe(origin);
  });

  it('moves next links to the origin the client called, and only links to the one given out', () => {
    const link = '<http://127.0.0.1:3000/plants?cursor=a>; rel="next"';
    expect(linkOnOrigin(link, 'http://127.0.0.1:3000', 'http://localhost:3000')).toBe(
      '<http://localhost:3000/plants?cursor=a>; rel="next"',
    );
    expect(linkOnOrigin(link, 'http://127.0.0.1:3000', 'http://127.0.0.1:3000')).toBe(link);
    expect(linkOnOrigin('<?cursor=a>; rel="next"', 'http://127.0.0.1:3000', 'http://localhost:3000')).toBe(
      '<?cursor=a>; rel="next"',
    );
  });
});
