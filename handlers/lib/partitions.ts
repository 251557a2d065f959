// Keys of the plants table: whose plants a partition holds, unambiguous by construction, and the
// size limits DynamoDB puts on keys.

// Every partition key starts with its kind, so a user's partition and a group's can never be the
// same key whatever the `sub` or group name (OIDC subjects are arbitrary strings: a user whose
// sub is "group#x" still lands in "user#group#x"). Within a kind the mapping is one-to-one.

/** The partition of a user's own plants: `user#<sub>`. */
export const userPartition = (sub: string): string => `user#${sub}`;

/** The partition of a group's shared plants: `group#<name>`. */
export const groupPartition = (group: string): string => `group#${group}`;

/** Whether a partition key is a group's (shared by its members: the one kind worth caching). */
export const isGroupPartition = (partition: string): boolean => partition.startsWith(groupPartition(''));

/** A partition no plant can be in (it has neither prefix): what the init warm-up queries. */
export const WARM_UP_PARTITION = 'warm-up';

/** DynamoDB's limits for a partition key and for a sort key (the plant id), in UTF-8 bytes. */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;

/** The longest name (a sub, a group) whose partition key stays within DynamoDB's limit. */
export const maxNameBytes = (partitionOf: (name: string) => string): number =>
  MAX_PARTITION_KEY_BYTES - Buffer.byteLength(partitionOf(''));

/**
 * Every partition a caller may read, in listing order: their own first, then their groups' in the
 * order given (sorted by name, see groups.ts).
 */
export const accessiblePartitions = ({ sub, groups }: { sub: string; groups: readonly string[] }): string[] => [
  userPartition(sub),
  ...groups.map(groupPartition),
];
