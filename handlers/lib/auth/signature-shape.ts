// What a token's signature must look like before a key checks it, and the one spelling of each
// signature: base64url without padding, and for ECDSA the low-S form of (r, s).

import { JwtInvalidSignatureAlgorithmError, JwtInvalidSignatureError } from 'aws-jwt-verify/error';
import type { Jwk } from 'aws-jwt-verify/jwk';
import type { DecomposedJwt } from 'aws-jwt-verify/jwt';

/** An ECDSA curve (RFC 7518 §3.4): its JWK `crv`, its IEEE P1363 signature length, its order n. */
interface Curve {
  crv: string;
  bytes: number;
  order: bigint;
}

const P256: Curve = {
  crv: 'P-256',
  bytes: 64,
  order: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
};
const P384: Curve = {
  crv: 'P-384',
  bytes: 96,
  order: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
};
const P521: Curve = {
  crv: 'P-521',
  bytes: 132,
  order:
    0x01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409n,
};

/**
 * Each algorithm aws-jwt-verify accepts, the key type that may check it and, where the signature
 * has a fixed length, that length per curve (RFC 7518 §3.4, RFC 8037 §3.1).
 */
const KEYS_FOR = new Map<string, { kty: string; lengths?: Map<string, number> }>([
  ['RS256', { kty: 'RSA' }],
  ['RS384', { kty: 'RSA' }],
  ['RS512', { kty: 'RSA' }],
  ['ES256', { kty: 'EC', lengths: new Map([[P256.crv, P256.bytes]]) }],
  ['ES384', { kty: 'EC', lengths: new Map([[P384.crv, P384.bytes]]) }],
  ['ES512', { kty: 'EC', lengths: new Map([[P521.crv, P521.bytes]]) }],
  [
    'EdDSA',
    {
      kty: 'OKP',
      lengths: new Map([
        ['Ed25519', 64],
        ['Ed448', 114],
      ]),
    },
  ],
]);
/** The curve of each ECDSA algorithm (RFC 7518 §3.4). */
export const CURVE_OF_ALG: ReadonlyMap<string, Readonly<Curve>> = new Map([
  ['ES256', P256],
  ['ES384', P384],
  ['ES512', P521],
]);

/**
 * Refuses, as an invalid token, a signature the key it names cannot check. aws-jwt-verify 5.2.1
 * hands an EC key's signature to Node's verify with `dsaEncoding: 'ieee-p1363'`, which throws a
 * plain `Error: Malformed signature` (ERR_CRYPTO_OPERATION_FAILED, not a JwtBaseError) for any
 * length but the curve's (DER, empty, 63 bytes...), and `Unsupported crypto operation` for an
 * Ed25519 key under an RS or ES `alg` when the JWK names no `alg`: both would leave as 500. So the
 * key must be of the kind and curve the `alg` says, and an EC or EdDSA signature of exactly that
 * curve's length, before the library is called. Checked here, with the key in hand, rather than
 * by mapping the library's error: the message is OpenSSL's, and a fault of ours with the same
 * code must still be a 500.
 */
export function refuseUnfitSignature({ header, signatureB64 }: DecomposedJwt, jwk: Jwk): void {
  const alg = String(header.alg);
  const fits = KEYS_FOR.get(alg);
  if (!fits) throw new JwtInvalidSignatureAlgorithmError('Unsupported signature algorithm', alg, [...KEYS_FOR.keys()]);
  const length = fits.lengths?.get(String(jwk.crv));
  if (jwk.kty !== fits.kty || (fits.lengths && length === undefined)) {
    throw new JwtInvalidSignatureAlgorithmError(`Signature algorithm ${alg} does not fit the key`, alg, jwk.kty);
  }
  // Exact: the signature was checked for its one base64url spelling first (refuseNonCanonicalSignature).
  if (length !== undefined && Buffer.from(signatureB64, 'base64url').length !== length) {
    throw new JwtInvalidSignatureError(`Signature is not ${length} bytes long, as ${alg} with this key writes it`);
  }
}

/**
 * aws-jwt-verify decodes a signature with Node's base64 decoder, which ignores `=` padding and the
 * unused low bits of the last character: an RS256 token verifies in 48 spellings (3 paddings × 16
 * values of those 4 bits). Each would count as another token wherever tokens are told apart by
 * their text (the verified-token cache, a rate limit per token), so only the one
 * spelling RFC 7515 issuers write, unpadded base64url, is taken.
 */
export function refuseNonCanonicalSignature(token: string): void {
  const signature = token.slice(token.lastIndexOf('.') + 1);
  if (/^[A-Za-z0-9_-]*$/.test(signature) && Buffer.from(signature, 'base64url').toString('base64url') === signature) {
    return;
  }
  throw new JwtInvalidSignatureError('Signature is not in its canonical base64url spelling');
}

/**
 * The token with an ECDSA signature (r, s) written as (r, min(s, n − s)); any other token as it is.
 * Both verify whenever one does (ECDSA has no low-S rule), and issuers sign with either: Node's
 * and OpenSSL's signers give s > n/2 about half the time, and cloud KMSs do not normalise, so
 * refusing the high form would refuse genuine tokens. The verified-token cache keys on this
 * spelling, so the two forms are one entry; a limit keyed on the header's text sees two keys
 * (docs/reliability.md). Read from the unverified header: a token that lies about its `alg` gets
 * a key no verified token has.
 */
export function lowSSpelling(token: string): string {
  const dot = token.lastIndexOf('.');
  const curve = CURVE_OF_ALG.get(algOf(token.slice(0, token.indexOf('.'))));
  if (!curve || dot < 0) return token;
  const signature = Buffer.from(token.slice(dot + 1), 'base64url');
  if (signature.length !== curve.bytes) return token;
  const half = curve.bytes / 2;
  const s = BigInt(`0x${signature.subarray(half).toString('hex')}`);
  // s ≥ n never verifies: left as sent.
  if (s <= curve.order >> 1n || s >= curve.order) return token;
  const low = Buffer.from((curve.order - s).toString(16).padStart(curve.bytes, '0'), 'hex');
  return `${token.slice(0, dot + 1)}${Buffer.concat([signature.subarray(0, half), low]).toString('base64url')}`;
}

/** The `alg` of a header segment, or '' when it is not a JSON object naming one. */
function algOf(headerB64: string): string {
  try {
    const header: unknown = JSON.parse(Buffer.from(headerB64, 'base64url').toString('utf8'));
    const alg = (header as { alg?: unknown } | null)?.alg;
    return typeof alg === 'string' ? alg : '';
  } catch {
    return '';
  }
}
