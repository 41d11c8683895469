// api/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"); the server's own files import the files themselves.
export { needsStepUp } from './access';
export { SESSION_STATE_CACHE_MS } from './sessionState';
