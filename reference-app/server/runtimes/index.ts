// runtimes/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"): the runtime contract, the HTTP runtime and its URL policy, the local models.
export { decodeImage } from './local/images';
export { createHttpRuntime } from './http/httpRuntime';
export { checkServiceUrl, isPrivateAddress, ownAddressOf, PLATFORM_REQUEST_HEADER, urlProblem } from './http/urlPolicy';
export { createModelRuntimes } from './models';
export { loadModelsConfig } from './models/config';
export { CUT_MARK, MESSAGE_MAX_CHARS, RuntimeError, type Runtime } from './runtime';
