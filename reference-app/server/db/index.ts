// db/'s public entry: what tests outside test/unit import from the database module (docs/testing.md,
// "Tests and the server's entries"); the server's own files import the files themselves.
export { dropSchema, openDatabase, type DatabaseHandle } from './connect';
export { isDatabaseUnavailable } from './errors';
export { migrateToLatest } from './migrate';
export type { Db } from './types';
