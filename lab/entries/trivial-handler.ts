// Baseline for the cold start: a handler that answers an empty list and does nothing else.

export const handler = async () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '[]' });
