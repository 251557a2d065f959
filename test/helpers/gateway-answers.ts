// API Gateway's JWT authorizer (-c jwtAuthorizer=true) refusing before the function, replayed for the
// contract's checker, the smoke check's stand-in and a generated client. The 401 with a token is AWS's
// (API Gateway guide, "Troubleshooting issues with HTTP API JWT authorizers"); AWS prints neither the
// 401 without a token nor the 403: they follow it, the scope first, and a real account confirms them.

import type { HttpResponse } from './openapi.ts';

const json = { 'content-type': 'application/json' };

export const JWT_AUTHORIZER_ANSWERS = {
  'a refused token': {
    statusCode: 401,
    headers: {
      ...json,
      'www-authenticate':
        'Bearer scope="" error="invalid_token" error_description="the token does not have a valid audience"',
    },
    body: '{"message":"Unauthorized"}',
  },
  'no token': { statusCode: 401, headers: json, body: '{"message":"Unauthorized"}' },
  'a missing scope': {
    statusCode: 403,
    headers: { ...json, 'www-authenticate': 'Bearer scope="plants/read" error="insufficient_scope"' },
    body: '{"message":"Forbidden"}',
  },
} satisfies Record<string, HttpResponse>;
