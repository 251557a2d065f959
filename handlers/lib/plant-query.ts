// The one shape of a read of one owner's plants: the partition key it matches and the attributes it
// projects (id for the cursor, name and tag for the body; nothing else ever leaves the table). The
// function's Query and the bench's baselines (a bare Query, the forbidden Scan) read with it.

/** Only the owner's items, with `id`, `name` and `tag`; as a Query's key condition or a Scan's filter. */
export function ownerRead(partition: string) {
  return {
    ProjectionExpression: '#id, #name, #tag',
    ExpressionAttributeNames: { '#owner': 'owner', '#id': 'id', '#name': 'name', '#tag': 'tag' },
    ExpressionAttributeValues: { ':owner': partition },
  };
}

/** The condition on the owner, for a Query's KeyConditionExpression or a Scan's FilterExpression. */
export const OWNER_CONDITION = '#owner = :owner';
