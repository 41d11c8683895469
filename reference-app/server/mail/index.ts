// mail/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's entries").
export type { Mailer, OutgoingMail } from './mailer';
