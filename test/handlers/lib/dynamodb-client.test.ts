// The function's DynamoDB client as DynamoDB receives it: every Query signed with Lambda's
// credentials from the environment (session token included) for the Region, checked the way DynamoDB
// checks a signature (dynalite checks none), request after request.

import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignatureV4 } from '@smithy/signature-v4';
import { createPlantsClient } from '../../../handlers/lib/dynamodb-client.ts';
import { TEST_REGION } from '../../helpers/dynamo.ts';
import { localDynamoConfig } from '../../helpers/function-env.ts';

const LAMBDA_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'ASIAFROMLAMBDA',
  AWS_SECRET_ACCESS_KEY: 'secret-of-the-role',
  AWS_SESSION_TOKEN: 'session-of-the-role',
};

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const server = createServer(async (request, response) => {
  const body = Buffer.concat(await Array.fromAsync(request)).toString();
  received.push({ path: request.url ?? '', headers: request.headers, body });
  response.setHeader('content-type', 'application/x-amz-json-1.0');
  response.end('{"Items":[],"Count":0,"ScannedCount":0}');
});
const saved = { ...process.env };
beforeAll(async () => {
  Object.assign(process.env, LAMBDA_CREDENTIALS);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => {
  process.env = saved;
  server.closeAllConnections();
  server.close();
});

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data): string | Uint8Array => {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
};

/** The node:crypto hash the SDK's signer takes. */
class Sha256 {
  readonly #hash;
  constructor(secret?: Data) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Data) {
    this.#hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.#hash.digest());
  }
}

/** The signature DynamoDB computes for a request as it arrived, from the headers it names as signed. */
async function expectedSignature({ path, headers, body }: Received) {
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(headers.authorization ?? '')?.[1]?.split(';') ?? [];
  const date = String(headers['x-amz-date']).replace(
    /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
    '$1-$2-$3T$4:$5:$6Z',
  );
  const [hostname, port] = String(headers.host).split(':');
  const signer = new SignatureV4({
    service: 'dynamodb',
    region: TEST_REGION,
    credentials: {
      accessKeyId: LAMBDA_CREDENTIALS.AWS_ACCESS_KEY_ID,
      secretAccessKey: LAMBDA_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
      sessionToken: LAMBDA_CREDENTIALS.AWS_SESSION_TOKEN,
    },
    sha256: Sha256,
  });
  const request = {
    method: 'POST',
    protocol: 'http:',
    hostname: hostname ?? '',
    port: Number(port),
    path,
    query: {},
    headers: Object.fromEntries(signedHeaders.map((name) => [name, String(headers[name])])),
    body,
  };
  const signed = await signer.sign(request, { signingDate: new Date(date) });
  return signed.headers.authorization;
}

describe('createPlantsClient', () => {
  it("signs each Query with the environment's credentials and session token for the Region, as DynamoDB checks it", async () => {
    // Prepare
    const { port } = server.address() as AddressInfo;
    const client = createPlantsClient(localDynamoConfig(`http://127.0.0.1:${port}`));
    const query = (owner: string) => ({
      TableName: 'plants',
      KeyConditionExpression: '#owner = :owner',
      ExpressionAttributeNames: { '#owner': 'owner' },
      ExpressionAttributeValues: { ':owner': owner },
      Limit: 1,
    });

    // Act
    await client.query(query('user#ann'));
    await client.query(query('group#team'));

    // Assess
    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(request.headers.authorization).toMatch(
        new RegExp(`^AWS4-HMAC-SHA256 Credential=ASIAFROMLAMBDA/\\d{8}/${TEST_REGION}/dynamodb/aws4_request,`),
      );
      expect(request.headers['x-amz-security-token']).toBe(LAMBDA_CREDENTIALS.AWS_SESSION_TOKEN);
      expect(request.headers['x-amz-target']).toBe('DynamoDB_20120810.Query');
      expect(request.headers.authorization).toBe(await expectedSignature(request));
    }
  });
});
