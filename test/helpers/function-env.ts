// The fewest variables the function's config reader accepts: what a test of one more variable adds to.

export const MINIMAL_FUNCTION_ENV = {
  PLANTS_TABLE_NAME: 'plants',
  AUTH_ISSUER: 'https://issuer.example.com/',
  AUTH_AUDIENCE: 'api://plants',
};
