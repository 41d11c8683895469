// publishing/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"): the importers of a service's endpoints.
export { importEndpoints } from './containerEndpoints';
export { importOpenApi, MAX_IMPORT_WORK } from './openapiImport';
