// The tests check responses against openapi.yaml with the smoke check's validator.
export * from '../../client/contract.ts';
