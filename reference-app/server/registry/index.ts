// registry/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"): the registry binary (tests skip without it), the files and socket of its supervisor
// (docs/publishing.md), and the proxy's upload limit.
export { MAX_OPEN_UPLOADS } from './proxy';
export { pidFileOf, REGISTRY_BINARY, socketPathOf, statusOverSocket } from './supervisor';
