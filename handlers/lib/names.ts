// The service's and its domain's names, written once: a rename starts here, then openapi.yaml (whose
// paths test/openapi.test.ts holds to the operation table) and the docs. The function, the stack, the
// deploy roles and the local tools derive theirs from these.

/** kebab-case: the `service` of every record and metric, the local issuer's client id. */
export const SERVICE_NAME = 'plant-store';
/** PascalCase: the metrics' namespace; the stacks', policies' and secrets' names; the environment tag. */
export const SERVICE_TITLE = 'PlantStore';
/** The domain's noun, plural: the collection's path and the local tables' name. */
export const COLLECTION = 'plants';
