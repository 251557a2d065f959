// The byte budget of one page: what each plant adds to the Lambda response, so the bytes an hour
// can send follow the stage's rate, and a page is billed as one HTTP API request.

/** HTTP APIs bill one request per started 512 KB (API Gateway pricing: "metered in 512 KB increments"). */
export const HTTP_API_METERING_BYTES = 524_288;

/**
 * Room for everything in the result but the plants: `statusCode`, the headers (a next link holds a
 * cursor of at most 2 KB, doubled by a 1 KB PUBLIC_BASE_URL and escaping to stay generous) and the
 * JSON framing of the result.
 */
export const HEADROOM = 16_384;

/**
 * Bytes the plants of one page may add to the invocation result: 64 KiB, 13 times a full page of
 * real-shaped plants (100 at ~48 bytes), so real pages end at `limit`; pages of the longest plants
 * end sooner. Every response then stays within one HTTP API billing unit, and an hour at the stage's
 * rate sends at most maxRequestsPerSecond × 3,600 × 80 KiB (lab/cost/worst-hour.ts prices it).
 * A first plant larger than the budget still makes a page on its own (plants.ts), within MAX_PAGE_BYTES.
 */
export const PAGE_BYTE_BUDGET = 65_536;

/** DynamoDB's largest item (400 KB): a plant's name and tag together are shorter. */
export const MAX_ITEM_BYTES = 409_600;
/**
 * The most one page can add: a single plant of DynamoDB's largest item, every byte a control
 * character (7 bytes once escaped twice). 2.8 MB: still under Lambda's limit with the headroom.
 */
export const MAX_PAGE_BYTES = MAX_ITEM_BYTES * 7;

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
