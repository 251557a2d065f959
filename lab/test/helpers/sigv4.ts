// SigV4 checked the way DynamoDB checks it: recomputed from a request as it arrived, with the
// secret the server knows (dynalite checks no signature at all).

import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

class NodeSha256 {
  readonly #hash: Hash | Hmac;
  constructor(secret?: string | Uint8Array) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  }
  update(data: string | Uint8Array) {
    this.#hash.update(data);
  }
  async digest() {
    return new Uint8Array(this.#hash.digest());
  }
}

/** SigV4 recomputed from the headers the request names as signed, as received, at its own X-Amz-Date. */
export async function signatureOf(
  received: Received | undefined,
  secret: { secretAccessKey: string; sessionToken: string },
) {
  if (!received) return undefined;
  const authorization = received.headers.authorization ?? '';
  const [, accessKeyId, region] = /Credential=([^/]+)\/\d{8}\/([^/]+)\//.exec(authorization) ?? [];
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const headers = Object.fromEntries(signedHeaders.map((name) => [name, String(received.headers[name])]));
  const [host, port] = (headers.host ?? '').split(':');
  const date = String(received.headers['x-amz-date']).replace(
    /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
    '$1-$2-$3T$4:$5:$6Z',
  );
  const signer = new SignatureV4({
    service: 'dynamodb',
    region: region ?? '',
    credentials: { accessKeyId: accessKeyId ?? '', ...secret },
    sha256: NodeSha256 as never,
    // The payload's hash is a header only if the client sent it (the SDK's signer adds it, aws4 not).
    applyChecksum: signedHeaders.includes('x-amz-content-sha256'),
  });
  const request = {
    method: received.method,
    protocol: 'http:',
    hostname: host ?? '',
    port: Number(port),
    path: received.path,
  };
  const signed = await signer.sign(
    { ...request, query: {}, headers, body: received.body },
    { signingDate: new Date(date) },
  );
  return signed.headers.authorization?.split('Signature=')[1];
}
