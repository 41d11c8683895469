/**
 * Whether `value` is a UUID as PostgreSQL's uuid type reads it. Ids from a URL are checked with it
 * before they reach a `::uuid` cast or a uuid column: anything else is an unknown id (404), where
 * the cast would fail the statement and answer 500.
 */
export const isUuid = (value: string): boolean => UUID.test(value);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
