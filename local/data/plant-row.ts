// One plant as the data CLI takes it (a command line, or a row of an import file), checked.

import { groupPartition, MAX_SORT_KEY_BYTES, maxNameBytes, userPartition } from '../../handlers/lib/partitions.ts';
import { itemBytes, MAX_PLANT_ITEM_BYTES, newPlantId, textProblem } from '../../handlers/lib/plant-item.ts';

/** A user's plant (`owner`, the sub) or a group's; `id` when the row names its own. */
export type PlantRow = ({ owner: string; group?: undefined } | { group: string; owner?: undefined }) & {
  name: string;
  tag?: string;
  id?: string;
};

export const ROW_FIELDS = ['owner', 'group', 'name', 'tag', 'id'] as const;
const FIELDS = new Set<string>(ROW_FIELDS);

/** The row, or every reason it is not one. */
export function validateRow(value: unknown): { row?: PlantRow; errors: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { errors: ['expected an object with owner (or group), name, and optional tag and id'] };
  }
  const fields = value as Record<string, unknown>;
  const errors = Object.keys(fields)
    .filter((key) => !FIELDS.has(key))
    .map((key) => `unknown field "${key}" (allowed: ${ROW_FIELDS.join(', ')})`);
  const given = (key: string) => fields[key] !== undefined && fields[key] !== null && fields[key] !== '';
  const text = (key: string, maxBytes?: number): string | undefined => {
    const raw = fields[key];
    if (!given(key)) return undefined;
    const problem = textProblem(raw, maxBytes);
    if (problem || typeof raw !== 'string') return void errors.push(`${key} ${problem}`);
    return raw.trim();
  };
  const owner = text('owner', maxNameBytes(userPartition));
  const group = text('group', maxNameBytes(groupPartition));
  const name = text('name');
  const tag = text('tag');
  const id = text('id', MAX_SORT_KEY_BYTES);
  if (!given('owner') && !given('group')) errors.push('owner (or group) is required');
  if (given('owner') && given('group')) errors.push('give owner or group, not both');
  if (!given('name')) errors.push('name is required');
  if (errors.length > 0 || !name || !(owner || group)) return { errors };
  const whose = owner ? { owner } : { group: group as string };
  // As DynamoDB sizes the item a page reads: the page's read budget holds only plants this small.
  const item = {
    owner: owner ? userPartition(owner) : groupPartition(group as string),
    id: id ?? newPlantId(),
    name,
    ...(tag && { tag }),
  };
  const bytes = itemBytes(item);
  if (bytes > MAX_PLANT_ITEM_BYTES) {
    return {
      errors: [`plant is ${bytes} bytes as stored (owner, id, name and tag together); at most ${MAX_PLANT_ITEM_BYTES}`],
    };
  }
  return { row: { ...whose, name, ...(tag && { tag }), ...(id && { id }) }, errors };
}

/** Who the row's plant belongs to, as people read it: `alice`, or `group greenhouse`. */
export const whoseOf = (row: { owner?: string | undefined; group?: string | undefined }) =>
  row.group === undefined ? `${row.owner}` : `group ${row.group}`;
