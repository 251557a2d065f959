// The byte budget of one page: what each plant adds to the Lambda response, so no page crosses 6 MB.

/** Lambda's limit on a synchronous invocation's result; over it API Gateway answers 500. */
export const LAMBDA_RESPONSE_LIMIT = 6_291_456;

/**
 * Room for everything in the result but the plants: `statusCode`, the headers (a next link holds a
 * cursor of at most 2 KB, doubled by a 1 KB PUBLIC_BASE_URL and escaping to stay generous) and the
 * JSON framing of the result. 16 KiB is 0.26 % of the limit.
 */
const HEADROOM = 16_384;

/** Bytes the plants of one page may add to the invocation result. */
export const PAGE_BYTE_BUDGET = LAMBDA_RESPONSE_LIMIT - HEADROOM;

export interface SerializedPlant {
  /** The plant's JSON, an element of the body array. */
  json: string;
  /** What it adds to the invocation result, separator included. */
  bytes: number;
}

/**
 * Lambda counts the serialized result, `{"statusCode":…,"headers":…,"body":"…"}`, in which the body
 * is a string escaped once more: `"` and `\` double, a control character written `\u0001` in the
 * body becomes `\\u0001`. So a plant costs the UTF-8 length of its JSON escaped again (less the two
 * quotes), plus one byte for the comma or bracket beside it (the last bracket is in the headroom).
 */
export function serializePlant(plant: object): SerializedPlant {
  const json = JSON.stringify(plant);
  return { json, bytes: Buffer.byteLength(JSON.stringify(json)) - 1 };
}

/** The body of a page: a JSON array of the serialized plants. */
export const pageBody = (plants: readonly SerializedPlant[]): string => `[${plants.map((p) => p.json).join(',')}]`;
