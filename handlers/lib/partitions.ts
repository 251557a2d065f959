// Partition keys of the plants table: whose plants a partition holds, unambiguous by construction.

// Every partition key starts with its kind, so a user's partition and a group's can never be the
// same key whatever the `sub` or group name (OIDC subjects are arbitrary strings: a user whose
// sub is "group#x" still lands in "user#group#x"). Within a kind the mapping is one-to-one.

/** The partition of a user's own plants: `user#<sub>`. */
export const userPartition = (sub: string): string => `user#${sub}`;

/** The partition of a group's shared plants: `group#<name>`. */
export const groupPartition = (group: string): string => `group#${group}`;

/**
 * Every partition a caller may read, in listing order: their own first, then their groups' in the
 * order given (sorted by name, see groups.ts).
 */
export const accessiblePartitions = ({ sub, groups }: { sub: string; groups: readonly string[] }): string[] => [
  userPartition(sub),
  ...groups.map(groupPartition),
];
