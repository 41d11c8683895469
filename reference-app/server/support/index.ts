// support/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's entries").
export { MailOutbox, retryDelayMs } from './mailOutbox';
